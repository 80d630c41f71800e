/// What is on screen: the visible path through the tree.
extension NavigationEngine {
    /// Everything stacked on screen, bottom first: each coordinator's root (or selected tab), then its stack items;
    /// a coordinator entry is followed by the coordinator's own entries.
    func visibleEntries() -> [VisibleEntry] {
        var result: [VisibleEntry] = []
        result.reserveCapacity(16)
        appendVisible(storage.rootNode, into: &result)
        return result
    }

    private func appendVisible(_ nodeID: NodeID, into result: inout [VisibleEntry]) {
        guard let node = storage.nodes[nodeID] else { return }
        if let base = node.baseEntry {
            result.append(
                VisibleEntry(owner: nodeID, entry: base, slot: node.kind == .tab ? .tab(node.selectedTab) : .root))
            if let child = base.content.nodeID { appendVisible(child, into: &result) }
        }
        for (index, item) in node.stack.enumerated() {
            result.append(VisibleEntry(owner: nodeID, entry: item, slot: .stack(index)))
            if let child = item.content.nodeID { appendVisible(child, into: &result) }
        }
    }

    /// Route names from the root to the top-most visible screen.
    public var visiblePath: [String] {
        visibleEntries().map(\.entry.route)
    }

    /// The top-most visible screen entry, with its owner.
    func topScreen(in entries: [VisibleEntry]) -> VisibleEntry? {
        entries.last { $0.entry.content == .screen }
    }

    /// The coordinator nearest the visible screen of type `C` (Stinsen's `RouterStore`): first along the visible
    /// path from the top down, then anywhere in the tree.
    public func nearest<C>(_ type: C.Type) -> C? {
        nearestNode { storage.nodes[$0]?.coordinator is C }.flatMap { storage.nodes[$0]?.coordinator as? C }
    }

    func nearestNode(where matches: (NodeID) -> Bool) -> NodeID? {
        let visible = visibleEntries()
        var seen = Set<NodeID>()
        for entry in visible.reversed() {
            for candidate in [entry.entry.content.nodeID, entry.owner].compactMap({ $0 })
            where !seen.contains(candidate) {
                seen.insert(candidate)
                if matches(candidate) { return candidate }
            }
        }
        return storage.nodes.keys.sorted().first(where: matches)
    }

    /// Whether a coordinator of that type name is in the tree (what a defined app's `{"open": …}` condition asks).
    package func containsCoordinator(ofType typeName: String) -> Bool {
        storage.nodes.values.contains { $0.typeName == typeName }
    }

    /// The coordinator of that type name nearest the visible screen (as ``nearest(_:)`` finds one), if any.
    package func nearestCoordinator(ofType typeName: String) -> NodeID? {
        nearestNode { storage.nodes[$0]?.typeName == typeName }
    }

    /// Resolves a chain's starting coordinator: nil → the root; a node id; or a type name (nearest of that type).
    func resolveCoordinator(_ reference: String?) throws -> NodeID {
        guard let reference, !reference.isEmpty else { return storage.rootNode }
        if let id = NodeID(reference), storage.nodes[id] != nil { return id }
        if let found = nearestNode(where: { storage.nodes[$0]?.typeName == reference }) { return found }
        throw NavigationError.coordinatorNotFound(reference)
    }
}

extension NavigationEngine {
    /// The type name of the coordinator at a node id (e.g. `TodosCoordinator`), if it is in the tree.
    public func coordinatorType(of nodeID: NodeID) -> String? {
        storage.nodes[nodeID]?.typeName
    }

    /// The item id of the top-most visible screen.
    public var visibleItem: ItemID? {
        topScreen(in: visibleEntries())?.entry.id
    }
}
