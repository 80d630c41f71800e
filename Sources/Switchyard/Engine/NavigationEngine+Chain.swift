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
        switch step.action {
        case .root:
            return try switchRoot(nodeID, step.required(\.route, "route"), input: step.input, animated: animated)
        case .hasRoot: return try hasRoot(nodeID, step.required(\.route, "route"))
        case .route: return try route(nodeID, step.required(\.route, "route"), input: step.input, animated: animated)
        case .show: return try show(nodeID, step.required(\.route, "route"), input: step.input, animated: animated)
        case .push: return try push(nodeID, step.required(\.route, "route"), input: step.input, animated: animated)
        case .pushStack: return try pushStack(nodeID, step.required(\.routes, "routes"), animated: animated)
        case .present:
            return try present(
                nodeID, step.required(\.route, "route"), input: step.input, presentation: step.presentation,
                animated: animated)
        case .pop: return try pop(nodeID)
        case .popItem: return try pop(nodeID, item: itemID(step.required(\.item, "item")))
        case .popTo: return try pop(nodeID, to: step.required(\.route, "route"), match: step.match ?? .last)
        case .focusFirst:
            let route = try step.required(\.route, "route")
            if try requireNode(nodeID).kind == .tab {
                return try focusTab(nodeID, route, input: step.input)
            }
            return try pop(nodeID, to: route, match: .first, input: step.input)
        case .focus: return try focusTab(nodeID, step.required(\.route, "route"))
        case .popToRoot: return try popToRoot(nodeID)
        case .child: return try child(nodeID)
        case .dismiss: return try dismiss(nodeID)
        case .dismissCoordinator: return try dismissCoordinator(nodeID)
        case .addTab: return try addTab(nodeID, step.required(\.route, "route"), input: step.input, select: false)
        case .removeTab: return try removeTab(nodeID, item: itemID(step.required(\.item, "item")))
        case .presentAlert:
            let alert = Alert(
                title: try step.required(\.title, "title"), message: step.message, actions: step.actions ?? [])
            return try presentAlert(nodeID, alert)
        case .respondToAlert: return try respondToAlert(nodeID, choice: step.required(\.choice, "choice"))
        case .back: return try back()
        case .dismissModal: return try dismissModal()
        case .selectTab: return try selectTab(step.required(\.route, "route"))
        }
    }
}

extension Step {
    /// A member the action needs, or a clear error naming it.
    func required<Value>(_ member: KeyPath<Step, Value?>, _ name: String) throws -> Value {
        if let value = self[keyPath: member] { return value }
        throw NavigationError(
            code: "missingMember", category: .invalidRequest,
            message: "action '\(action.rawValue)' needs '\(name)'")
    }
}
