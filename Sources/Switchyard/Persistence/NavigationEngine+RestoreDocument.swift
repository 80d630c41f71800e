/// Writing the restore document: what a session must store to come back exactly as it was.
extension NavigationEngine {
    /// The format the restore document declares in its `format` member.
    public static let restoreFormat = "switchyard.restore/1"

    /// The restore document: the tree with every route and input, the version, the pending deep link, the id
    /// counter, and the data of every ``PersistentCoordinator`` — without rendered screens, decorations or tab items,
    /// which the app's code recomputes.
    ///
    /// `{"format", "app"?, "version", "tree", "pendingDeepLink"?, "pendingRoute"?, "nextId"}`; each node is `{"id", "type", "kind", "root"?,
    /// "stack", "tabs"?, "selectedTabId"?, "alert"?, "data"?}`. ``init(restoring:root:deepLinks:)`` turns it back
    /// into an engine whose ``stateDocument(session:result:)`` is byte for byte the one this engine writes. It is
    /// several times smaller than the state document (about 1 KB for the demo's deep states, against 19 KB).
    ///
    /// - Throws: the error of a coordinator whose ``PersistentCoordinator/persistentState`` cannot be encoded.
    public func restoreDocument() throws -> [UInt8] {
        var writer = JSONWriter(capacity: 1024)
        var spans: [(node: NodeID, bytes: Range<Int>)] = []
        writer.beginObject()
        writer.member("format", Self.restoreFormat)
        writeApp(into: &writer)
        writer.member("version", storage.version)
        writer.key("tree")
        try writeRestorableNode(storage.rootNode, spans: &spans, into: &writer)
        writer.member("pendingDeepLink", ifPresent: storage.pendingDeepLink)
        if let pending = storage.pendingRoute { writer.member("pendingRoute", pending.json) }
        writer.member("nextId", storage.nextID)
        writer.endObject()
        let document = writer.bytes
        // Not onto the first version's document: the sessions of an app most often start alike, and a store keeps
        // one copy of that document for all of them (a session that never changes would hold its own through
        // its data).
        if storage.version > 0 { rebaseWrittenData(onto: document, spans: spans) }
        return document
    }

    /// Writes a node and everything below it; notes in `spans` where the data of each node whose data is kept
    /// (``WrittenData``) is written.
    private func writeRestorableNode(
        _ nodeID: NodeID, spans: inout [(node: NodeID, bytes: Range<Int>)], into writer: inout JSONWriter
    ) throws {
        guard let node = storage.nodes[nodeID] else {
            writer.null()
            return
        }
        let coordinator = node.coordinator
        writer.beginObject()
        node.writeIdentity(into: &writer)
        if let root = node.root {
            writer.key("root")
            try writeRestorableEntry(root, spans: &spans, into: &writer)
        }
        writer.key("stack")
        writer.beginArray()
        for item in node.stack { try writeRestorableEntry(item, spans: &spans, into: &writer) }
        writer.endArray()
        if node.kind == .tab {
            writer.key("tabs")
            writer.beginArray()
            for tab in node.tabs { try writeRestorableEntry(tab, spans: &spans, into: &writer) }
            writer.endArray()
            writer.member("selectedTabId", ifPresent: node.baseEntry?.id.description)
        }
        if let alert = node.alert {
            writer.key("alert")
            writeAlert(alert, into: &writer)
        }
        if let persistent = coordinator as? any PersistentCoordinator,
            (coordinator as? any DynamicCoordinator)?.savesState ?? true
        {
            writer.key("data")
            let data = try dataJSON(persistent, node: nodeID)
            writer.raw(data.bytes)
            if data.kept { spans.append((nodeID, writer.byteCount - data.bytes.count..<writer.byteCount)) }
        }
        writer.endObject()
    }

    private func writeRestorableEntry(
        _ entry: EntryState, spans: inout [(node: NodeID, bytes: Range<Int>)], into writer: inout JSONWriter
    ) throws {
        writer.beginObject()
        entry.writeRoute(into: &writer)
        if case .coordinator(let child) = entry.content {
            writer.key("coordinator")
            try writeRestorableNode(child, spans: &spans, into: &writer)
        }
        writer.endObject()
    }

    /// Gives every persistent coordinator of the restored tree its data from the snapshot: all of it is decoded
    /// first, so data that does not fit leaves every coordinator's data as it was. Inside the restoring
    /// transaction, before hooks run.
    func restoreData(from snapshot: NodeSnapshot) throws {
        var assignments: [() -> Void] = []
        try collectData(from: snapshot, into: &assignments)
        for assign in assignments { assign() }
    }

    private func collectData(from snapshot: NodeSnapshot, into assignments: inout [() -> Void]) throws {
        let coordinator = try storage.coordinator(snapshot.id)
        if let data = snapshot.data {
            guard let persistent = coordinator as? any PersistentCoordinator else {
                throw NavigationError.restoreFailed(
                    "node \(snapshot.id) holds data, but \(snapshot.type) does not keep any (PersistentCoordinator)")
            }
            do {
                assignments.append(try persistent.decodedState(data))
            } catch {
                throw NavigationError.restoreFailed("node \(snapshot.id) (\(snapshot.type)) has data it cannot read")
            }
        }
        for entry in [snapshot.root].compactMap(\.self) + snapshot.stack + snapshot.tabs {
            if let child = entry.coordinator { try collectData(from: child, into: &assignments) }
        }
    }
}

extension NavigationEngine {
    /// Returns the tree to the state a restore document describes (an earlier version, read back from a store),
    /// as one new change: the version grows by one, it does not go back.
    ///
    /// Everything below the root coordinator is replaced (`onFinish` runs for the coordinators that leave,
    /// `onStart` for those the document brings back), the root coordinator stays and gets its content and data
    /// from the document, and so does every ``PersistentCoordinator`` the document holds. Ids come back as they
    /// were in that version; new ids continue after the highest ever handed out, so no id is reused for
    /// something else. The pending deep link is the document's.
    ///
    /// Guards are asked about every route of the restored tree (with the restored data): one that does not allow
    /// its route now refuses the restore (``NavigationError/restoreGuarded(route:reason:)``).
    ///
    /// - Throws: ``NavigationError/restoreFailed(_:)`` when the document does not fit the app (nothing changes).
    public func restore(to document: JSONValue) throws {
        if let format = document["format"], format != .string(Self.restoreFormat) {
            throw NavigationError.restoreFailed(
                "the document's format is \(format.jsonString), not \(Self.restoreFormat)")
        }
        if let app, let written = try AppVersion.named(in: document), written != app {
            throw NavigationError.restoreFailed("the document was stored by \(written), this engine runs \(app)")
        }
        let snapshot = try NodeSnapshot(document["tree"] ?? document)
        let highest = try snapshot.checkDistinctIDs()
        // Rolling the tree back does not roll back the root coordinator (it stays): a refused restore gives it its
        // data back.
        let persistentRoot = rootCoordinator as? any PersistentCoordinator
        let rootData = try? persistentRoot?.savedState()
        // The document's ids may name other screens than the ones rendered last.
        forgetRenderings()
        do {
            try restoreTree(snapshot, document, highestID: highest)
        } catch {
            if let rootData, let putBack = try? persistentRoot?.decodedState(rootData) { putBack() }
            throw error
        }
    }

    /// Rebuilds the tree below the root from `snapshot`, whose highest id is `highestID`, in one transaction.
    private func restoreTree(_ snapshot: NodeSnapshot, _ document: JSONValue, highestID: Int) throws {
        try transaction {
            journal?.restored = true
            let rootID = storage.rootNode
            guard let root = storage.nodes[rootID], snapshot.id == rootID else {
                throw NavigationError.restoreFailed("the document's root is \(snapshot.id), this engine's \(rootID)")
            }
            for entry in root.stack.reversed() { discard(entry, of: rootID) }
            for entry in root.tabs.reversed() { discard(entry, of: rootID) }
            if let entry = root.root { discard(entry, of: rootID) }
            try storage.modify(rootID) { node in
                node.root = nil
                node.stack = []
                node.tabs = []
                node.selectedTab = 0
                node.alert = nil
            }
            let next = storage.nextID
            checksGuards = false
            defer { checksGuards = true }
            try restoreContent(of: rootID, from: snapshot)
            try restoreData(from: snapshot)
            checksGuards = true
            try checkRestoredGuards(rootID)
            storage.nextID = max(next, highestID + 1)
            storage.pendingDeepLink = document["pendingDeepLink"]?.stringValue
            storage.pendingRoute = try Self.pendingRoute(in: document)
            markChanged()
        }
    }
}

extension NavigationEngine {
    /// The document's pending route; nil when it has none, ``NavigationError/restoreFailed(_:)`` when it is not one.
    static func pendingRoute(in document: JSONValue) throws -> PendingRoute? {
        guard let json = document["pendingRoute"], json != .null else { return nil }
        guard let pending = PendingRoute(json: json) else {
            throw NavigationError.restoreFailed("the document's pendingRoute is not one: \(json.jsonString)")
        }
        return pending
    }
}
