/// Stack, root and presentation operations by name. Each returns the node the chain continues with.
/// Only called inside a transaction.
extension NavigationEngine {
    func requireNode(_ id: NodeID) throws -> NodeState {
        guard let node = storage.nodes[id] else { throw NavigationError.coordinatorNotFound(id.description) }
        return node
    }

    func require(_ node: NodeState, kinds: [CoordinatorKind], for operation: String) throws {
        guard kinds.contains(node.kind) else {
            throw NavigationError.unsupported(operation, kind: node.kind, type: node.typeName)
        }
    }

    /// `route(to:)`: the route's declared presentation (root routes switch root, tab routes focus).
    func route(
        _ nodeID: NodeID, _ route: String, input: JSONValue?, animated: Bool, onDismiss: (() -> Void)? = nil
    ) throws -> NodeID {
        let node = try requireNode(nodeID)
        let transition = try transition(of: nodeID, named: route, kinds: [.root, .route, .tab])
        switch transition.kind {
        case .root:
            return try switchRoot(nodeID, route, input: input, animated: animated)
        case .tab:
            return try focusTab(nodeID, route, input: input)
        case .route:
            if transition.style.presentation == .push {
                try require(node, kinds: [.navigation], for: "push")
            }
            return try append(
                nodeID, route, transition, input: input, presentation: transition.style.presentation,
                dismissible: transition.style.dismissible, animated: animated, onDismiss: onDismiss)
        }
    }

    /// Pushes a route, whatever its declared style.
    func push(
        _ nodeID: NodeID, _ route: String, input: JSONValue?, animated: Bool, onDismiss: (() -> Void)? = nil
    ) throws -> NodeID {
        try require(requireNode(nodeID), kinds: [.navigation], for: "push")
        let transition = try transition(of: nodeID, named: route, kinds: [.route])
        return try append(
            nodeID, route, transition, input: input, presentation: .push, dismissible: true, animated: animated,
            onDismiss: onDismiss)
    }

    /// Presents a route as a modal or full-screen cover (any kind of coordinator).
    func present(
        _ nodeID: NodeID, _ route: String, input: JSONValue?, presentation: Presentation?, animated: Bool,
        onDismiss: (() -> Void)? = nil
    ) throws -> NodeID {
        _ = try requireNode(nodeID)
        let transition = try transition(of: nodeID, named: route, kinds: [.route])
        let declared = transition.style.presentation
        let chosen = presentation ?? (declared.isPresentation ? declared : .modal)
        guard chosen.isPresentation else {
            throw NavigationError(
                code: "invalidPresentation", category: .invalidRequest,
                message: "present takes modal or fullScreen", choices: ["modal", "fullScreen"])
        }
        return try append(
            nodeID, route, transition, input: input, presentation: chosen, dismissible: transition.style.dismissible,
            animated: animated, onDismiss: onDismiss)
    }

    private func append(
        _ nodeID: NodeID, _ route: String, _ transition: AnyTransition, input: JSONValue?, presentation: Presentation,
        dismissible: Bool, animated: Bool, onDismiss: (() -> Void)?
    ) throws -> NodeID {
        let entry = try makeEntry(
            owner: nodeID, route: route, kinds: [.route], input: input, presentation: presentation,
            animated: animated, dismissible: dismissible, resolved: transition)
        try storage.modify(nodeID) { $0.stack.append(entry) }
        if let onDismiss { storage.dismissCallbacks[entry.id] = onDismiss }
        return landing(entry, owner: nodeID)
    }

    /// Pushes several routes; only the last is animated.
    func pushStack(_ nodeID: NodeID, _ routes: [Step.RouteReference], animated: Bool) throws -> NodeID {
        var landing = nodeID
        for (index, reference) in routes.enumerated() {
            landing = try push(
                nodeID, reference.route, input: reference.input, animated: animated && index == routes.count - 1)
        }
        return landing
    }

    /// Switches the root route. Equal route and input: nothing changes. Otherwise everything the old root had
    /// stacked or presented is removed.
    func switchRoot(_ nodeID: NodeID, _ route: String, input: JSONValue?, animated: Bool) throws -> NodeID {
        let node = try requireNode(nodeID)
        try require(node, kinds: [.root, .navigation], for: "root")
        _ = try transition(of: nodeID, named: route, kinds: [.root])
        let normalized = input == .null ? nil : input
        if let current = node.root, current.route == route, current.input == normalized {
            return landing(current, owner: nodeID)
        }
        truncateStack(nodeID, from: 0)
        if let old = node.root { discard(old, of: nodeID) }
        let entry = try makeEntry(
            owner: nodeID, route: route, kinds: [.root], input: input, presentation: nil, animated: animated)
        try storage.modify(nodeID) { $0.root = entry }
        return landing(entry, owner: nodeID)
    }

    /// Continues the chain in the current root's coordinator if its route is `route`; otherwise fails.
    func hasRoot(_ nodeID: NodeID, _ route: String) throws -> NodeID {
        landing(try currentRoot(of: nodeID, is: route, for: "hasRoot"), owner: nodeID)
    }

    /// Continues the chain here if the current root's route is `route` (a screen or a coordinator); otherwise fails.
    func isRoot(_ nodeID: NodeID, _ route: String) throws -> NodeID {
        _ = try currentRoot(of: nodeID, is: route, for: "isRoot")
        return nodeID
    }

    /// The root entry of a root or navigation coordinator when its route is `route` (a root route of the node);
    /// 409 `notRoot` naming the current one otherwise.
    private func currentRoot(of nodeID: NodeID, is route: String, for operation: String) throws -> EntryState {
        let node = try requireNode(nodeID)
        try require(node, kinds: [.root, .navigation], for: operation)
        _ = try transition(of: nodeID, named: route, kinds: [.root])
        guard let root = node.root, root.route == route else {
            throw NavigationError.notRoot(route, current: node.root?.route ?? "")
        }
        return root
    }

    /// Removes the top stack item (pushed or presented).
    func pop(_ nodeID: NodeID) throws -> NodeID {
        let node = try requireNode(nodeID)
        try require(node, kinds: [.navigation], for: "pop")
        guard !node.stack.isEmpty else { throw NavigationError.cannotPopRoot(node.typeName) }
        truncateStack(nodeID, from: node.stack.count - 1)
        return nodeID
    }

    /// Removes an item and everything above it (Stinsen's router `pop()`).
    func pop(_ nodeID: NodeID, item: ItemID) throws -> NodeID {
        let node = try requireNode(nodeID)
        guard let slot = node.slot(of: item) else { throw NavigationError.itemNotFound(item.description) }
        guard case .stack(let index) = slot else { throw NavigationError.cannotPopRoot(node.typeName) }
        truncateStack(nodeID, from: index)
        return nodeID
    }

    /// Pops everything above the last (or first) entry with that route; the root entry counts.
    func pop(_ nodeID: NodeID, to route: String, match: StackMatch, input: JSONValue? = nil) throws -> NodeID {
        let node = try requireNode(nodeID)
        try require(node, kinds: [.navigation], for: "popTo")
        _ = try transition(of: nodeID, named: route, kinds: [.root, .route])
        let entries = [node.root].compactMap { $0 } + node.stack
        let matches = entries.indices.filter {
            entries[$0].route == route && (input == nil || entries[$0].input == input)
        }
        guard let position = match == .last ? matches.last : matches.first else {
            throw NavigationError.routeNotInStack(route, stack: entries.map(\.route))
        }
        truncateStack(nodeID, from: position)  // entries[0] is the root; stack index = position - 1, keep it
        return nodeID
    }

    /// Clears the stack (nothing happens when it is already empty).
    func popToRoot(_ nodeID: NodeID) throws -> NodeID {
        try require(requireNode(nodeID), kinds: [.navigation], for: "popToRoot")
        truncateStack(nodeID, from: 0)
        return nodeID
    }

    /// Moves the chain into the current root's (or selected tab's) coordinator.
    func child(_ nodeID: NodeID) throws -> NodeID {
        let node = try requireNode(nodeID)
        guard let base = node.baseEntry, let child = base.content.nodeID else {
            throw NavigationError.noChild(node.typeName)
        }
        return child
    }

    /// Koordinator's `show`: the container decides — push, add a tab, or switch root.
    func show(_ nodeID: NodeID, _ route: String, input: JSONValue?, animated: Bool) throws -> NodeID {
        let node = try requireNode(nodeID)
        switch node.kind {
        case .navigation:
            let transition = try transition(of: nodeID, named: route, kinds: [.root, .route])
            if transition.kind == .root { return try switchRoot(nodeID, route, input: input, animated: animated) }
            return try push(nodeID, route, input: input, animated: animated)
        case .tab:
            return try addTab(nodeID, route, input: input, select: true)
        case .root:
            return try switchRoot(nodeID, route, input: input, animated: animated)
        }
    }
}
