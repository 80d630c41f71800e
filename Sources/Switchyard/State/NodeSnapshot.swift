/// A coordinator node read back from a state document, for restoring an engine.
final class NodeSnapshot {
    let id: NodeID
    let type: String
    let kind: CoordinatorKind
    let root: EntrySnapshot?
    let stack: [EntrySnapshot]
    let tabs: [EntrySnapshot]
    let selectedTabID: ItemID?
    let alert: Alert?
    /// A ``PersistentCoordinator``'s data, when the document holds it.
    let data: JSONValue?

    init(_ json: JSONValue) throws {
        guard let object = json.objectValue else { throw NavigationError.restoreFailed("a node is not an object") }
        let text = try Self.string(object, "id")
        guard let id = NodeID(text) else { throw NavigationError.restoreFailed("'\(text)' is not a node id") }
        self.id = id
        type = try Self.string(object, "type")
        guard let kind = CoordinatorKind(rawValue: try Self.string(object, "kind")) else {
            throw NavigationError.restoreFailed("node \(id) has an unknown kind")
        }
        self.kind = kind
        root = try object["root"].map(EntrySnapshot.init)
        stack = try Self.array(object["stack"]).map(EntrySnapshot.init)
        tabs = try Self.array(object["tabs"]).map(EntrySnapshot.init)
        selectedTabID = object["selectedTabId"]?.stringValue.flatMap(ItemID.init)
        if let alert = object["alert"] {
            do {
                self.alert = try alert.decode(Alert.self)
            } catch {
                throw NavigationError.restoreFailed("node \(id) has an invalid alert")
            }
        } else {
            alert = nil
        }
        data = object["data"]
    }

    /// Throws when one number names two things among this node and everything below it (nodes and items share one
    /// counter): checked before restoring, since a restore gives every node and item the id the document says.
    ///
    /// - Returns: The highest number of them (new ids continue after it).
    func checkDistinctIDs() throws -> Int {
        var seen: Set<Int> = []
        try collectIDs(into: &seen)
        return seen.max() ?? 0
    }

    fileprivate func collectIDs(into seen: inout Set<Int>) throws {
        guard seen.insert(id.number).inserted else { throw NavigationError.restoreFailed("id \(id) appears twice") }
        if let root { try root.collectIDs(into: &seen) }
        for entry in tabs { try entry.collectIDs(into: &seen) }
        for entry in stack { try entry.collectIDs(into: &seen) }
    }

    static func string(_ object: [String: JSONValue], _ key: String) throws -> String {
        guard let value = object[key]?.stringValue else {
            throw NavigationError.restoreFailed("missing '\(key)'")
        }
        return value
    }

    static func array(_ value: JSONValue?) throws -> [JSONValue] {
        switch value {
        case nil, .null?: return []
        case .array(let elements)?: return elements
        default: throw NavigationError.restoreFailed("expected an array")
        }
    }
}

/// An entry read back from a state document.
struct EntrySnapshot {
    let id: ItemID
    let route: String
    let input: JSONValue?
    let presentation: Presentation?
    let animated: Bool
    let dismissible: Bool
    let coordinator: NodeSnapshot?

    init(_ json: JSONValue) throws {
        guard let object = json.objectValue else { throw NavigationError.restoreFailed("an entry is not an object") }
        let text = try NodeSnapshot.string(object, "id")
        guard let id = ItemID(text) else { throw NavigationError.restoreFailed("'\(text)' is not an item id") }
        self.id = id
        route = try NodeSnapshot.string(object, "route")
        input = object["input"]
        if let name = object["presentation"]?.stringValue {
            guard let presentation = Presentation(rawValue: name) else {
                throw NavigationError.restoreFailed("entry \(id) has an unknown presentation '\(name)'")
            }
            self.presentation = presentation
        } else {
            presentation = nil
        }
        if case .bool(let flag)? = object["animated"] { animated = flag } else { animated = true }
        if case .bool(let flag)? = object["dismissible"] { dismissible = flag } else { dismissible = true }
        coordinator = try object["coordinator"].map(NodeSnapshot.init)
    }

    /// Notes this entry's id and everything below it in `seen` (``NodeSnapshot/checkDistinctIDs()``).
    fileprivate func collectIDs(into seen: inout Set<Int>) throws {
        guard seen.insert(id.number).inserted else { throw NavigationError.restoreFailed("id \(id) appears twice") }
        try coordinator?.collectIDs(into: &seen)
    }
}
