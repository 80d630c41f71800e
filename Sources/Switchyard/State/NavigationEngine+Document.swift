/// Writing the state document: the tree as JSON, with screens rendered from current data.
extension NavigationEngine {
    /// The state document: `{"session"?, "version", "visible", "tree", "pendingDeepLink"?, "pendingRoute"?, "nextId",
    /// "result"?}`.
    ///
    /// - Parameters:
    ///   - session: The session id to include, if any.
    ///   - result: Extra members for a `result` object (e.g. where a chain ended).
    public func stateDocument(session: String? = nil, result: [String: JSONValue]? = nil) -> [UInt8] {
        var writer = JSONWriter(capacity: documentSizeHint + 256)
        writer.beginObject()
        writer.member("session", ifPresent: session)
        writeApp(into: &writer)
        writeState(into: &writer)
        if let result {
            writer.member("result", .object(result))
        }
        writer.endObject()
        let bytes = writer.bytes
        documentSizeHint = bytes.count
        return bytes
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

    /// Writes the document's members (`version`, `visible`, `tree`, …) into an open object.
    public func writeState(into writer: inout JSONWriter) {
        let top = openVisible(into: &writer)
        // The top screen appears twice (here and in the tree): render it once.
        var rendered: RenderedScreen?
        if let top {
            var screenWriter = JSONWriter(capacity: 2048)
            writeScreen(top.entry.id, owner: top.owner, into: &screenWriter)
            rendered = RenderedScreen(item: top.entry.id, json: screenWriter.bytes)
            writer.member("coordinator", top.owner.description)
            writer.member("item", top.entry.id.description)
            writer.key("screen")
            writer.raw(screenWriter.bytes)
        }
        writer.endObject()
        writer.key("tree")
        writeNode(storage.rootNode, reusing: rendered, into: &writer)
        writer.member("pendingDeepLink", ifPresent: storage.pendingDeepLink)
        if let pending = storage.pendingRoute { writer.member("pendingRoute", pending.json) }
        writer.member("nextId", storage.nextID)
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

    private func writeNode(_ nodeID: NodeID, reusing rendered: RenderedScreen?, into writer: inout JSONWriter) {
        guard let node = storage.nodes[nodeID], let coordinator = storage.coordinators[nodeID] else {
            writer.null()
            return
        }
        writer.beginObject()
        node.writeIdentity(into: &writer)
        if let root = node.root {
            writer.key("root")
            writeEntry(root, owner: nodeID, tabItem: nil, reusing: rendered, into: &writer)
        }
        writer.key("stack")
        writer.beginArray()
        for item in node.stack { writeEntry(item, owner: nodeID, tabItem: nil, reusing: rendered, into: &writer) }
        writer.endArray()
        var decoration = Decoration()
        coordinator.customize(&decoration)
        if node.kind == .tab {
            let table = RouteTable.of(coordinator)
            writer.key("tabs")
            writer.beginArray()
            for tab in node.tabs {
                var item = table.routes[tab.route]?.makeTabItem(owner: coordinator)
                if let badge = decoration.badges[tab.route] { item?.badge = badge }
                writeEntry(tab, owner: nodeID, tabItem: item, reusing: rendered, into: &writer)
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
        _ entry: EntryState, owner: NodeID, tabItem: TabItem?, reusing rendered: RenderedScreen?,
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
            if let rendered, rendered.item == entry.id {
                writer.raw(rendered.json)
            } else {
                writeScreen(entry.id, owner: owner, into: &writer)
            }
        case .coordinator(let child):
            writer.key("coordinator")
            writeNode(child, reusing: rendered, into: &writer)
        }
        writer.endObject()
    }

    private func writeScreen(_ itemID: ItemID, owner: NodeID, into writer: inout JSONWriter) {
        guard let screen = storage.items[itemID]?.screen else {
            writer.null()
            return
        }
        let content = screen.render()
        writer.beginObject()
        writer.member("title", content.title)
        writer.member("background", ifPresent: content.background)
        writer.key("content")
        writer.beginArray()
        let screenWriter = ScreenWriter(owner: owner.description, item: itemID.description)
        for index in content.content.indices {
            screenWriter.write(content.content[index], into: &writer)
        }
        writer.endArray()
        writer.endObject()
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

/// The top screen's JSON, written once and copied into the tree.
private struct RenderedScreen {
    let item: ItemID
    let json: [UInt8]
}
