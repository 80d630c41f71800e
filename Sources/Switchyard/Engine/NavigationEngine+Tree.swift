/// Building and pruning the tree. Only called inside a transaction.
extension NavigationEngine {
    /// Puts a coordinator into the tree with its initial content (or the content of `snapshot`, when restoring).
    func attach(
        _ coordinator: any Coordinatable, parent: String?, host: String?, snapshot: NodeSnapshot?
    ) throws
        -> String
    {
        let binding = coordinator.binding
        if binding.engine === self, let existing = binding.nodeID, storage.nodes[existing] != nil {
            throw NavigationError(
                code: "coordinatorInTree", category: .conflict,
                message: "\(type(of: coordinator)) is already in the tree; factories must return new coordinators")
        }
        let table = RouteTable.of(coordinator)
        let id = snapshot?.id ?? newID("n")
        binding.table = table
        binding.engine = self
        binding.nodeID = id
        storage.nodes[id] = NodeState(
            id: id, typeName: table.typeName, kind: binding.kind, parent: parent, host: host)
        storage.coordinators[id] = coordinator
        journal?.started.append(id)
        markChanged()
        if let snapshot {
            try restoreContent(of: id, from: snapshot)
            return id
        }
        switch binding.kind {
        case .root, .navigation:
            guard let (name, input) = binding.initialRoot(of: coordinator) else {
                throw NavigationError.restoreFailed(
                    "\(table.typeName)'s initial route is not one of its @Root routes")
            }
            storage.nodes[id]!.root = try makeEntry(
                owner: id, route: name, kinds: [.root], input: input, presentation: nil, animated: false)
        case .tab:
            guard let (names, selected) = binding.initialTabs(of: coordinator) else {
                throw NavigationError.restoreFailed("\(table.typeName)'s tabs must be @TabRoute routes")
            }
            for name in names {
                let entry = try makeEntry(
                    owner: id, route: name, kinds: [.tab], input: nil, presentation: nil, animated: false)
                storage.nodes[id]!.tabs.append(entry)
            }
            storage.nodes[id]!.selectedTab = selected
        }
        return id
    }

    /// The route table of a node's coordinator.
    func table(of nodeID: String) -> RouteTable {
        let coordinator = storage.coordinators[nodeID]!
        return coordinator.binding.table ?? RouteTable.of(coordinator)
    }

    /// Looks up a route of a node, checking its kind.
    func transition(of nodeID: String, named route: String, kinds: [RouteKind]) throws -> AnyTransition {
        let table = table(of: nodeID)
        guard let transition = table.routes[route] else {
            throw NavigationError.unknownRoute(route, in: table.typeName, choices: table.order)
        }
        guard kinds.contains(transition.kind) else {
            let expected = kinds.map { "a \($0.rawValue) route" }.sorted().joined(separator: " or ")
            let choices = table.order.filter { kinds.contains(table.routes[$0]!.kind) }
            throw NavigationError.wrongRouteKind(route, in: table.typeName, expected: expected, choices: choices)
        }
        return transition
    }

    /// Calls a route's factory and makes an entry for what it returned (attaching a child coordinator).
    func makeEntry(
        owner: String, route: String, kinds: [RouteKind], input: JSONValue?, presentation: Presentation?,
        animated: Bool, dismissible: Bool = true, id fixedID: String? = nil, snapshot: NodeSnapshot? = nil,
        resolved: AnyTransition? = nil
    ) throws -> EntryState {
        let transition = try resolved ?? transition(of: owner, named: route, kinds: kinds)
        let product = try transition.make(owner: storage.coordinators[owner]!, input: input, route: route)
        let id = fixedID ?? newID("i")
        let content: EntryContent
        switch product {
        case .screen(let screen):
            storage.screens[id] = screen
            content = .screen
        case .coordinator(let child):
            if presentation == .push, child.binding.kind != .navigation {
                throw NavigationError.cannotPush(String(describing: type(of: child)))
            }
            content = .coordinator(try attach(child, parent: owner, host: id, snapshot: snapshot))
        }
        storage.itemOwner[id] = owner
        markChanged()
        let storedInput = (input == .null) ? nil : input
        return EntryState(
            id: id, route: route, input: storedInput, presentation: presentation, animated: animated,
            dismissible: dismissible, content: content)
    }

    /// Removes an entry's content from the tree: its screen, or its coordinator with all descendants.
    func discard(_ entry: EntryState) {
        switch entry.content {
        case .screen:
            storage.screens[entry.id] = nil
        case .coordinator(let nodeID):
            detach(nodeID)
        }
        storage.itemOwner[entry.id] = nil
        // Checked before removing: removing from the dictionary would copy it (the transaction holds a snapshot).
        if storage.dismissCallbacks[entry.id] != nil,
            let callback = storage.dismissCallbacks.removeValue(forKey: entry.id)
        {
            journal?.dismissed.append(callback)
        }
        markChanged()
    }

    /// Removes a coordinator and everything below it; hooks are queued deepest first.
    private func detach(_ nodeID: String) {
        guard let node = storage.nodes[nodeID] else { return }
        for entry in node.stack.reversed() { discard(entry) }
        for entry in node.tabs.reversed() { discard(entry) }
        if let root = node.root { discard(root) }
        let coordinator = storage.coordinators[nodeID]!
        let parent = node.parent.flatMap { storage.coordinators[$0] }
        storage.nodes[nodeID] = nil
        storage.coordinators[nodeID] = nil
        if let index = journal?.started.firstIndex(of: nodeID) {
            journal?.started.remove(at: index)
        } else {
            journal?.finished.append((coordinator, parent))
        }
    }

    /// Removes the stack items of a node from `index` up (top first).
    func truncateStack(_ nodeID: String, from index: Int) {
        guard let count = storage.nodes[nodeID]?.stack.count, index < count else { return }
        // Take the removed items out first: holding a copy of the whole stack while removing would copy its buffer.
        let removed = Array(storage.nodes[nodeID]!.stack[index...])
        storage.nodes[nodeID]!.stack.removeSubrange(index...)
        for entry in removed.reversed() { discard(entry) }
        markChanged()
    }

    /// The node a coordinator occupies in this engine's tree.
    func node(of coordinator: any Coordinatable) throws -> String {
        let binding = coordinator.binding
        guard binding.engine === self, let id = binding.nodeID, storage.nodes[id] != nil else {
            throw NavigationError.detached(String(describing: type(of: coordinator)))
        }
        return id
    }

    /// The coordinator at a node, typed.
    func coordinator<C>(_ nodeID: String, as type: C.Type) throws -> C {
        guard let coordinator = storage.coordinators[nodeID] as? C else {
            throw NavigationError.coordinatorNotFound(nodeID)
        }
        return coordinator
    }

    /// The node id an entry leads to: its coordinator, or `owner` for a screen.
    func landing(_ entry: EntryState, owner: String) -> String {
        entry.content.nodeID ?? owner
    }
}
