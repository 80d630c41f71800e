/// Writing the state document: the tree as JSON, with screens rendered from current data.
extension NavigationEngine {
    /// The state document: `{"session"?, "version", "visible", "tree", "pendingDeepLink"?, "pendingRoute"?, "nextId",
    /// "result"?}`.
    ///
    /// - Parameters:
    ///   - session: The session id to include, if any.
    ///   - result: Extra members for a `result` object (e.g. where a chain ended).
    public func stateDocument(session: String? = nil, result: [String: JSONValue]? = nil) -> [UInt8] {
        writeDocument(session: session, result: result).bytes
    }

    /// The state document, or why a screen it shows could not be described in full (``ScreenContent/failure``):
    /// what a change's commit is checked with, so that no version shows a screen cut short.
    public func checkedStateDocument(session: String? = nil) -> Result<[UInt8], ScreenRenderingFailure> {
        let written = writeDocument(session: session, result: nil)
        if let failure = written.failure { return .failure(failure) }
        return .success(written.bytes)
    }

    private func writeDocument(
        session: String?, result: [String: JSONValue]?
    ) -> (
        bytes: [UInt8], failure: ScreenRenderingFailure?
    ) {
        var writer = JSONWriter(capacity: documentSizeHint + 256)
        writer.beginObject()
        writer.member("session", ifPresent: session)
        writeApp(into: &writer)
        let failure = writeState(into: &writer)
        if let result {
            writer.member("result", .object(result))
        }
        writer.endObject()
        let bytes = writer.bytes
        documentSizeHint = bytes.count
        return (bytes, failure)
    }

    /// The short form of the state document, for clients that follow the stream and only need to know where a change
    /// landed: `{"session"?, "version", "visible": {"path", "coordinator", "item"}, "pendingDeepLink"?, "pendingRoute"?,
    /// "result"?}`
    /// (no tree, no rendered screens).
    public func summaryDocument(session: String? = nil, result: [String: JSONValue]? = nil) -> [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.member("session", ifPresent: session)
        let top = openVisible(into: &writer)
        if let top {
            writer.member("coordinator", top.owner.description)
            writer.member("item", top.entry.id.description)
        }
        writer.endObject()
        writer.member("pendingDeepLink", ifPresent: storage.pendingDeepLink)
        if let pending = storage.pendingRoute { writer.member("pendingRoute", pending.json) }
        if let result {
            writer.member("result", .object(result))
        }
        writer.endObject()
        return writer.bytes
    }

    /// Writes `"app": {"name", "version"}` into an open object, when the engine knows its app.
    func writeApp(into writer: inout JSONWriter) {
        guard let app else { return }
        writer.key("app")
        writer.beginObject()
        writer.member("name", app.name)
        writer.member("version", app.version)
        writer.endObject()
    }

    /// Writes the document's members (`version`, `visible`, `tree`, …) into an open object; returns why a screen
    /// it wrote is not described in full (``ScreenContent/failure``), if one is not.
    @discardableResult
    public func writeState(into writer: inout JSONWriter) -> ScreenRenderingFailure? {
        let top = openVisible(into: &writer)
        var screens = DocumentScreens(kept: screenRenderings?.entries)
        if let top {
            // The top screen appears twice (here and in the tree): it is rendered once.
            let screen = storage.screens[top.entry.id]
            let json = screenJSON(
                top.entry.id, screen, revision: screen?.contentRevision, owner: top.owner, &screens)
            screens.top = (top.entry.id, json)
            writer.member("coordinator", top.owner.description)
            writer.member("item", top.entry.id.description)
            writer.key("screen")
            writer.raw(json)
        }
        writer.endObject()
        writer.key("tree")
        writeNode(storage.rootNode, screens: &screens, into: &writer)
        writer.member("pendingDeepLink", ifPresent: storage.pendingDeepLink)
        if let pending = storage.pendingRoute { writer.member("pendingRoute", pending.json) }
        writer.member("nextId", storage.nextID)
        // A document written inside a running transaction (app code asking for it) shows a state that may yet be
        // rolled back: its renderings are not kept.
        if let screenRenderings, journal == nil {
            screenRenderings.replace(with: screens.written)
        }
        return screens.failure
    }

    /// Writes `"version"` and opens `"visible"` with its `path`; returns the top-most visible screen entry.
    private func openVisible(into writer: inout JSONWriter) -> VisibleEntry? {
        writer.member("version", storage.version)
        let entries = visibleEntries()
        writer.key("visible")
        writer.beginObject()
        writer.key("path")
        writer.beginArray()
        for entry in entries { writer.string(entry.entry.route) }
        writer.endArray()
        return topScreen(in: entries)
    }

    /// The state document as a JSON value (for tests, restore and tools).
    public func stateValue() -> JSONValue {
        (try? JSONValue(parsing: stateDocument())) ?? .null
    }

    private func writeNode(_ nodeID: NodeID, screens: inout DocumentScreens, into writer: inout JSONWriter) {
        guard let node = storage.nodes[nodeID] else {
            writer.null()
            return
        }
        let coordinator = node.coordinator
        writer.beginObject()
        node.writeIdentity(into: &writer)
        if let root = node.root {
            writer.key("root")
            writeEntry(root, owner: nodeID, tabItem: nil, screens: &screens, into: &writer)
        }
        writer.key("stack")
        writer.beginArray()
        for item in node.stack { writeEntry(item, owner: nodeID, tabItem: nil, screens: &screens, into: &writer) }
        writer.endArray()
        var decoration = Decoration()
        coordinator.customize(&decoration)
        if node.kind == .tab {
            let table = node.table
            writer.key("tabs")
            writer.beginArray()
            for tab in node.tabs {
                var item = table.routes[tab.route]?.makeTabItem(owner: coordinator)
                if let badge = decoration.badges[tab.route] { item?.badge = badge }
                writeEntry(tab, owner: nodeID, tabItem: item, screens: &screens, into: &writer)
            }
            writer.endArray()
            if let selected = node.baseEntry {
                writer.member("selectedTab", selected.route)
                writer.member("selectedTabId", selected.id.description)
            }
        }
        if let alert = node.alert {
            writer.key("alert")
            writeAlert(alert, into: &writer)
        }
        if !decoration.isEmpty {
            writer.key("decoration")
            writeDecoration(decoration, into: &writer)
        }
        writer.endObject()
    }

    private func writeEntry(
        _ entry: EntryState, owner: NodeID, tabItem: TabItem?, screens: inout DocumentScreens,
        into writer: inout JSONWriter
    ) {
        writer.beginObject()
        entry.writeRoute(into: &writer)
        if let tabItem {
            writer.key("tabItem")
            writer.beginObject()
            writer.member("title", tabItem.title)
            writer.member("icon", tabItem.icon)
            writer.member("badge", ifPresent: tabItem.badge)
            writer.endObject()
        }
        switch entry.content {
        case .screen:
            writer.key("screen")
            if let top = screens.top, top.item == entry.id {
                writer.raw(top.json)
            } else if screens.keeps, let screen = storage.screens[entry.id],
                let revision = screen.contentRevision
            {
                writer.raw(screenJSON(entry.id, screen, revision: revision, owner: owner, &screens))
            } else {
                writeScreen(entry.id, owner: owner, screens: &screens, into: &writer)
            }
        case .coordinator(let child):
            writer.key("coordinator")
            writeNode(child, screens: &screens, into: &writer)
        }
        writer.endObject()
    }

    /// The JSON of `screen`, which item `itemID` shows, at `revision` (its `contentRevision`, read once): its kept
    /// rendering while that revision is the one it was written at, else rendered now. With renderings, one with a
    /// revision is noted in `screens` to keep.
    private func screenJSON(
        _ itemID: ItemID, _ screen: (any Screen)?, revision: Int?, owner: NodeID, _ screens: inout DocumentScreens
    ) -> [UInt8] {
        guard let screen else { return Array("null".utf8) }
        if let revision, let kept = screens.kept[itemID], kept.epoch == renderingEpoch, kept.owner == owner,
            kept.revision == revision
        {
            screens.written[itemID] = kept
            return kept.json
        }
        var writer = JSONWriter(capacity: 2048)
        let content = screen.render()
        let unwritten = write(content, itemID, owner: owner, into: &writer)
        let json = writer.bytes
        if let failure = content.failure ?? unwritten {
            screens.failure = screens.failure ?? failure
        } else if screens.keeps, let revision {
            screens.written[itemID] = ScreenRendering(
                epoch: renderingEpoch, owner: owner, revision: revision, json: json)
        }
        return json
    }

    private func writeScreen(
        _ itemID: ItemID, owner: NodeID, screens: inout DocumentScreens, into writer: inout JSONWriter
    ) {
        guard let screen = storage.screens[itemID] else {
            writer.null()
            return
        }
        let content = screen.render()
        let unwritten = write(content, itemID, owner: owner, into: &writer)
        if let failure = content.failure ?? unwritten { screens.failure = screens.failure ?? failure }
    }

    /// Writes `content`; returns why it is not shown when a typed action names a route that no coordinator holding
    /// the screen has.
    private func write(
        _ content: ScreenContent, _ itemID: ItemID, owner: NodeID, into writer: inout JSONWriter
    ) -> ScreenRenderingFailure? {
        writer.beginObject()
        writer.member("title", content.title)
        writer.member("background", ifPresent: content.background)
        writer.key("content")
        writer.beginArray()
        var screenWriter = ScreenWriter(owner: owner.description, item: itemID.description)
        for index in content.content.indices {
            screenWriter.write(content.content[index], into: &writer) { locate($0, from: owner) }
        }
        writer.endArray()
        writer.endObject()
        guard let unplaced = screenWriter.unplaced else { return nil }
        return ScreenRenderingFailure(
            reason: "the screen '\(content.title)' has an action that opens \(unplaced.described(route: nil)), "
                + "but no \(unplaced.ownerName) holds the screen",
            cause: .misplacedAction)
    }

    /// The coordinator a typed action's route belongs to, from `owner` up through its ancestors, and the route's name.
    private func locate(_ action: RouteAction, from owner: NodeID) -> ScreenWriter.RouteLocation? {
        var current: NodeID? = owner
        while let id = current, let node = storage.nodes[id] {
            if let route = action.routeName(on: node.coordinator) { return (id.description, route) }
            current = node.parent
        }
        return nil
    }

    func writeAlert(_ alert: Alert, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("title", alert.title)
        writer.member("message", ifPresent: alert.message)
        writer.key("actions")
        writer.beginArray()
        for action in alert.actions { action.write(into: &writer) }
        writer.endArray()
        writer.endObject()
    }

    private func writeDecoration(_ decoration: Decoration, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("title", ifPresent: decoration.title)
        if let hidden = decoration.navigationBarHidden { writer.member("navigationBarHidden", hidden) }
        writer.member("tint", ifPresent: decoration.tint)
        writer.member("tabBarStyle", ifPresent: decoration.tabBarStyle)
        if !decoration.badges.isEmpty {
            writer.member("badges", .object(decoration.badges.mapValues { .string($0) }))
        }
        writer.endObject()
    }
}

extension NodeState {
    /// Writes `id`, `type` and `kind` into an open object.
    func writeIdentity(into writer: inout JSONWriter) {
        writer.member("id", id.description)
        writer.member("type", typeName)
        writer.member("kind", kind.rawValue)
    }
}

extension EntryState {
    /// Writes the members that say what the entry is (`id`, `route`, `input`, `presentation`, `animated`,
    /// `dismissible`) into an open object: what restoring it needs.
    func writeRoute(into writer: inout JSONWriter) {
        writer.member("id", id.description)
        writer.member("route", route)
        if let input { writer.member("input", input) }
        if let presentation {
            writer.member("presentation", presentation.rawValue)
            writer.member("animated", animated)
            writer.member("dismissible", dismissible)
        }
    }
}

/// The screens of one state document: the renderings kept from the last one, and those this one wrote.
private struct DocumentScreens {
    /// The last document's renderings; empty when the engine keeps none.
    let kept: [ItemID: ScreenRendering]
    /// Whether the engine keeps renderings: the screens with a revision are then written once as bytes, to keep.
    let keeps: Bool
    /// The renderings to keep: this document's screens that have a revision, so far.
    var written: [ItemID: ScreenRendering] = [:]
    /// The top screen's JSON, written once and copied into the tree.
    var top: (item: ItemID, json: [UInt8])?
    /// The first screen written that is not described in full.
    var failure: ScreenRenderingFailure?

    init(kept: [ItemID: ScreenRendering]?) {
        self.kept = kept ?? [:]
        keeps = kept != nil
    }
}
