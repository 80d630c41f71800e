/// Running chains of named steps (what the server receives as JSON).
extension NavigationEngine {
    /// Applies `steps` in order, each to the coordinator the previous one returned, as one transaction.
    ///
    /// - Parameters:
    ///   - steps: The chain.
    ///   - coordinator: Where the chain starts: a node id, a coordinator type name (the one nearest the visible
    ///     screen), or nil for the root coordinator.
    /// - Returns: The node id of the coordinator where the chain ended.
    @discardableResult
    public func perform(_ steps: [Step], from coordinator: NodeID?) throws -> NodeID {
        try transaction {
            guard let coordinator else { return try run(steps, at: storage.rootNode) }
            return try run(steps, at: requireNode(coordinator).id)
        }
    }

    /// Applies `steps` in order from a coordinator named on the wire (see ``perform(_:from:)-(_,NodeID?)``).
    @discardableResult
    public func perform(_ steps: [Step], from coordinator: String? = nil) throws -> NodeID {
        try transaction { try run(steps, at: resolveCoordinator(coordinator)) }
    }

    /// Applies `steps` in order, each to the node the previous one returned. Inside a transaction.
    private func run(_ steps: [Step], at start: NodeID) throws -> NodeID {
        var current = start
        for step in steps {
            current = try apply(step, at: current)
        }
        return current
    }

    /// The item a step names on the wire (`i4`); a malformed id is ``NavigationError/itemNotFound(_:)``.
    func itemID(_ reference: String) throws -> ItemID {
        guard let id = ItemID(reference) else { throw NavigationError.itemNotFound(reference) }
        return id
    }

    /// Applies one step at a node; returns the node the chain continues with.
    func apply(_ step: Step, at nodeID: NodeID) throws -> NodeID {
        let animated = step.animated ?? true
        switch step.operation {
        case .root(let route, let input): return try switchRoot(nodeID, route, input: input, animated: animated)
        case .hasRoot(let route): return try hasRoot(nodeID, route)
        case .isRoot(let route): return try isRoot(nodeID, route)
        case .route(let route, let input): return try self.route(nodeID, route, input: input, animated: animated)
        case .show(let route, let input): return try show(nodeID, route, input: input, animated: animated)
        case .push(let route, let input): return try push(nodeID, route, input: input, animated: animated)
        case .pushStack(let routes): return try pushStack(nodeID, routes, animated: animated)
        case .present(let route, let input, let presentation):
            return try present(nodeID, route, input: input, presentation: presentation, animated: animated)
        case .pop: return try pop(nodeID)
        case .popItem(let item): return try pop(nodeID, item: itemID(item))
        case .popTo(let route, let match): return try pop(nodeID, to: route, match: match ?? .last)
        case .focusFirst(let route, let input):
            if try requireNode(nodeID).kind == .tab {
                return try focusTab(nodeID, route, input: input)
            }
            return try pop(nodeID, to: route, match: .first, input: input)
        case .focus(let route): return try focusTab(nodeID, route)
        case .popToRoot: return try popToRoot(nodeID)
        case .child: return try child(nodeID)
        case .dismiss: return try dismiss(nodeID)
        case .dismissCoordinator: return try dismissCoordinator(nodeID)
        case .finish(let result): return try finish(nodeID, result: result)
        case .addTab(let route, let input): return try addTab(nodeID, route, input: input, select: false)
        case .removeTab(let item): return try removeTab(nodeID, item: itemID(item))
        case .presentAlert(let title, let message, let actions):
            return try presentAlert(nodeID, Alert(title: title, message: message, actions: actions ?? []))
        case .respondToAlert(let choice): return try respondToAlert(nodeID, choice: choice)
        case .back: return try back()
        case .dismissModal: return try dismissModal()
        case .selectTab(let route): return try selectTab(route)
        }
    }
}
