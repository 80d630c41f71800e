/// Building and pruning the tree. Only called inside a transaction.
extension NavigationEngine {
    /// Puts a coordinator into the tree with its initial content (or the content of `snapshot`, when restoring).
    func attach(
        _ coordinator: any Coordinatable, parent: NodeID?, host: ItemID?, snapshot: NodeSnapshot?
    ) throws
        -> NodeID
    {
        attachDepth += 1
        defer { attachDepth -= 1 }
        guard attachDepth <= Self.maxAttachDepth else {
            throw NavigationError(
                code: "treeTooDeep", category: .conflict,
                message:
                    "starting \(RouteTable.of(coordinator).typeName) makes more than \(Self.maxAttachDepth) coordinators one inside the other (do its initial routes lead back to it?)"
            )
        }
        let binding = coordinator.binding
        if binding.engine === self, let existing = binding.nodeID, storage.nodes[existing] != nil {
            throw NavigationError(
                code: "coordinatorInTree", category: .conflict,
                message: "\(type(of: coordinator)) is already in the tree; factories must return new coordinators")
        }
        let table = RouteTable.of(coordinator)
        let id = snapshot?.id ?? newNodeID()
        binding.table = table
        binding.engine = self
        binding.nodeID = id
        storage.nodes[id] = NodeState(
            id: id, coordinator: coordinator, table: table, kind: binding.kind, parent: parent, host: host)
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
            let entry = try makeEntry(
                owner: id, route: name, kinds: [.root], input: input, presentation: nil, animated: false)
            try storage.modify(id) { $0.root = entry }
        case .tab:
            guard let (names, selected) = binding.initialTabs(of: coordinator) else {
                throw NavigationError.restoreFailed("\(table.typeName)'s tabs must be @TabRoute routes")
            }
            for name in names {
                let entry = try makeEntry(
                    owner: id, route: name, kinds: [.tab], input: nil, presentation: nil, animated: false)
                try storage.modify(id) { $0.tabs.append(entry) }
            }
            try storage.modify(id) { $0.selectedTab = selected }
        }
        return id
    }

    /// The route table of a node's coordinator.
    func table(of nodeID: NodeID) throws -> RouteTable {
        try requireNode(nodeID).table
    }

    /// Looks up a route of a node, checking its kind. The choices an error offers are in name order, as the
    /// catalog lists routes (however the coordinator declared them).
    func transition(of nodeID: NodeID, named route: String, kinds: [RouteKind]) throws -> AnyTransition {
        let table = try table(of: nodeID)
        guard let transition = table.routes[route] else {
            throw NavigationError.unknownRoute(route, in: table.typeName, choices: table.order.sorted())
        }
        guard kinds.contains(transition.kind) else {
            let expected = kinds.map(\.phrase).sorted().joined(separator: " or ")
            let choices = table.order.sorted().filter { name in
                table.routes[name].map { kinds.contains($0.kind) } ?? false
            }
            throw NavigationError.wrongRouteKind(route, in: table.typeName, expected: expected, choices: choices)
        }
        return transition
    }

    /// Calls a route's factory and makes an entry for what it returned (attaching a child coordinator).
    func makeEntry(
        owner: NodeID, route: String, kinds: [RouteKind], input: JSONValue?, presentation: Presentation?,
        animated: Bool, dismissible: Bool = true, id fixedID: ItemID? = nil, snapshot: NodeSnapshot? = nil,
        resolved: AnyTransition? = nil
    ) throws -> EntryState {
        let transition = try resolved ?? transition(of: owner, named: route, kinds: kinds)
        try checkGuard(transition, owner: owner, route: route, input: input, presentation: presentation)
        let product = try transition.make(owner: try storage.coordinator(owner), input: input, route: route)
        let id = fixedID ?? newItemID()
        let content: EntryContent
        var screen: (any Screen)?
        switch product {
        case .screen(let made):
            screen = made
            content = .screen
        case .coordinator(let child):
            if presentation == .push, child.binding.kind != .navigation {
                throw NavigationError.cannotPush(String(describing: type(of: child)))
            }
            content = .coordinator(try attach(child, parent: owner, host: id, snapshot: snapshot))
        }
        if let screen { storage.screens[id] = screen }
        markChanged()
        let storedInput = (input == .null) ? nil : input
        return EntryState(
            id: id, route: route, input: storedInput, presentation: presentation, animated: animated,
            dismissible: dismissible, content: content, producesResult: transition.resultType != nil)
    }

    /// Removes an entry of node `owner` from the tree: its screen, or its coordinator with all descendants.
    func discard(_ entry: EntryState, of owner: NodeID) {
        if case .coordinator(let nodeID) = entry.content { detach(nodeID) }
        if entry.producesResult { queueOutcome(of: entry, owner: owner) }
        if entry.content == .screen { storage.screens[entry.id] = nil }
        // Checked before removing: removing from the dictionary would copy it (the transaction holds a snapshot).
        if storage.dismissCallbacks[entry.id] != nil,
            let callback = storage.dismissCallbacks.removeValue(forKey: entry.id)
        {
            journal?.dismissed.append(callback)
        }
        markChanged()
    }

    /// Removes a coordinator and everything below it; hooks are queued deepest first.
    private func detach(_ nodeID: NodeID) {
        guard let node = storage.nodes[nodeID] else { return }
        for entry in node.stack.reversed() { discard(entry, of: nodeID) }
        for entry in node.tabs.reversed() { discard(entry, of: nodeID) }
        if let root = node.root { discard(root, of: nodeID) }
        let coordinator = node.coordinator
        let parent = node.parent.flatMap { storage.nodes[$0]?.coordinator }
        storage.nodes[nodeID] = nil
        if let index = journal?.started.firstIndex(of: nodeID) {
            journal?.started.remove(at: index)
        } else {
            journal?.finished.append((CoordinatorReference(id: nodeID, type: node.typeName), coordinator, parent))
        }
    }

    /// Removes the stack items of a node from `index` up (top first).
    func truncateStack(_ nodeID: NodeID, from index: Int) {
        guard let position = storage.nodes.index(forKey: nodeID), index < storage.nodes.values[position].stack.count
        else { return }
        // Take the removed items out first (holding a copy of the whole stack while removing would copy its
        // buffer); the usual pop removes one item, which needs no array.
        if index == storage.nodes.values[position].stack.count - 1 {
            discard(storage.nodes.values[position].stack.removeLast(), of: nodeID)
        } else {
            let removed = Array(storage.nodes.values[position].stack[index...])
            storage.nodes.values[position].stack.removeSubrange(index...)
            for entry in removed.reversed() { discard(entry, of: nodeID) }
        }
        markChanged()
    }

    /// The node whose entry item `itemID` is; nil for an item not in the tree. A search of the tree: few nodes, and
    /// asked only by flow events sent from an item and by results.
    func owner(of itemID: ItemID) -> NodeID? {
        storage.nodes.first { $0.value.slot(of: itemID) != nil }?.key
    }

    /// Where a node sits in the tree: its parent, and the slot of the parent's entry hosting it (nil if the parent has
    /// no such entry); nil for the root coordinator and for a node that is not in the tree.
    func place(of nodeID: NodeID) -> (parent: NodeID, slot: EntrySlot?)? {
        guard let node = storage.nodes[nodeID], let parentID = node.parent, let host = node.host,
            let parent = storage.nodes[parentID]
        else { return nil }
        return (parentID, parent.slot(of: host))
    }

    /// The node a coordinator occupies in this engine's tree.
    func node(of coordinator: any Coordinatable) throws -> NodeID {
        let binding = coordinator.binding
        guard binding.engine === self, let id = binding.nodeID, storage.nodes[id] != nil else {
            throw NavigationError.detached(String(describing: type(of: coordinator)))
        }
        return id
    }

    /// The coordinator at a node, typed.
    func coordinator<C>(_ nodeID: NodeID, as type: C.Type) throws -> C {
        guard let coordinator = storage.nodes[nodeID]?.coordinator as? C else {
            throw NavigationError.coordinatorNotFound(nodeID.description)
        }
        return coordinator
    }

    /// The node id an entry leads to: its coordinator, or `owner` for a screen.
    func landing(_ entry: EntryState, owner: NodeID) -> NodeID {
        entry.content.nodeID ?? owner
    }
}
