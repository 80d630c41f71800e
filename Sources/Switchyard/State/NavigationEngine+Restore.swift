/// Restoring an engine from a state document by replaying its routes with their inputs.
extension NavigationEngine {
    /// Restores an engine from a ``restoreDocument()`` (or a state document, or just its `tree`), replaying every
    /// route with its input through the coordinators' own factories. Ids, version and the pending deep link are
    /// kept, so encoding the restored engine gives the same document. A restore document also gives every
    /// ``PersistentCoordinator`` its data back; a state document has none, so those keep their initial data.
    ///
    /// - Throws: ``NavigationError/restoreFailed(_:)`` (or the factories' input errors) when the document does not
    ///   fit the app's coordinators.
    public convenience init<Root: Coordinatable>(
        restoring document: JSONValue, root: Root, deepLinks: DeepLinkRouter<Root>? = nil
    ) throws {
        try self.init(restoring: document, erasedRoot: root, deepLinks: deepLinks.map(AnyDeepLinkRouter.init))
    }

    convenience init(
        restoring document: JSONValue, erasedRoot root: any Coordinatable, deepLinks: AnyDeepLinkRouter?
    )
        throws
    {
        if let format = document["format"], format != .string(Self.restoreFormat) {
            throw NavigationError.restoreFailed(
                "the document's format is \(format.jsonString), not \(Self.restoreFormat)")
        }
        let tree = document["tree"] ?? document
        let snapshot = try NodeSnapshot(tree)
        let highest = try snapshot.checkDistinctIDs()
        let pendingRoute = try Self.pendingRoute(in: document)
        try self.init(erasedRoot: root, deepLinks: deepLinks, restoring: snapshot)
        if case .number(let version)? = document["version"] {
            guard let exact = Int(exactly: version), exact >= 0 else {
                throw NavigationError.restoreFailed("the document's version \(version) is not a version")
            }
            storage.version = exact
        }
        storage.pendingDeepLink = document["pendingDeepLink"]?.stringValue
        storage.pendingRoute = pendingRoute
        var next = highest + 1
        if case .number(let saved)? = document["nextId"] {
            // Ids are written with at most 18 digits.
            guard let exact = Int(exactly: saved), exact < 1_000_000_000_000_000_000 else {
                throw NavigationError.restoreFailed("the document's nextId \(saved) is not an id")
            }
            next = max(next, exact)
        }
        storage.nextID = next
    }

    /// Rebuilds a node's content from a snapshot. Inside a transaction.
    func restoreContent(of nodeID: NodeID, from snapshot: NodeSnapshot) throws {
        guard let node = storage.nodes[nodeID] else {
            throw NavigationError.coordinatorNotFound(nodeID.description)
        }
        guard snapshot.type == node.typeName, snapshot.kind == node.kind else {
            throw NavigationError.restoreFailed(
                "node \(snapshot.id) is \(Article.withIndefinite(snapshot.type)) (\(snapshot.kind.rawValue)), the app made \(Article.withIndefinite(node.typeName))"
            )
        }
        if let root = snapshot.root {
            let entry = try restoreEntry(root, owner: nodeID, kinds: [.root])
            try storage.modify(nodeID) { $0.root = entry }
        } else if node.kind != .tab {
            throw NavigationError.restoreFailed("node \(snapshot.id) has no root")
        }
        for tab in snapshot.tabs {
            let entry = try restoreEntry(tab, owner: nodeID, kinds: [.tab])
            try storage.modify(nodeID) { $0.tabs.append(entry) }
        }
        if node.kind == .tab {
            guard !snapshot.tabs.isEmpty else { throw NavigationError.restoreFailed("node \(snapshot.id) has no tabs") }
            let selected = snapshot.tabs.firstIndex { $0.id == snapshot.selectedTabID } ?? 0
            try storage.modify(nodeID) { $0.selectedTab = selected }
        }
        for item in snapshot.stack {
            guard item.presentation != nil else {
                throw NavigationError.restoreFailed("stack item \(item.id) has no presentation")
            }
            let entry = try restoreEntry(item, owner: nodeID, kinds: [.route])
            try storage.modify(nodeID) { $0.stack.append(entry) }
        }
        try storage.modify(nodeID) { $0.alert = snapshot.alert }
    }

    /// An entry of node `owner` as the snapshot has it (its ids were checked distinct before the restore began:
    /// ``NodeSnapshot/checkDistinctIDs()``).
    private func restoreEntry(_ snapshot: EntrySnapshot, owner: NodeID, kinds: [RouteKind]) throws -> EntryState {
        let entry = try makeEntry(
            owner: owner, route: snapshot.route, kinds: kinds, input: snapshot.input,
            presentation: snapshot.presentation, animated: snapshot.animated, dismissible: snapshot.dismissible,
            id: snapshot.id, snapshot: snapshot.coordinator)
        if (snapshot.coordinator == nil) != (entry.content == .screen) {
            throw NavigationError.restoreFailed(
                "entry \(snapshot.id) ('\(snapshot.route)') changed between screen and coordinator")
        }
        return entry
    }
}
