/// Where an entry sits in its coordinator.
enum EntrySlot: Equatable {
    case root
    case tab(Int)
    case stack(Int)
}

/// What an entry shows.
enum EntryContent: Equatable {
    case screen
    case coordinator(String)

    var nodeID: String? {
        if case .coordinator(let id) = self { return id }
        return nil
    }
}

/// One entry of the tree: a root, a tab or a stack item.
struct EntryState {
    let id: String
    let route: String
    let input: JSONValue?
    /// nil for root and tab entries.
    let presentation: Presentation?
    var animated: Bool
    let dismissible: Bool
    let content: EntryContent
}

/// One coordinator of the tree.
struct NodeState {
    let id: String
    let typeName: String
    let kind: CoordinatorKind
    /// The parent node and the entry of the parent that hosts this node; nil for the root coordinator.
    var parent: String?
    var host: String?
    var root: EntryState?
    var stack: [EntryState] = []
    var tabs: [EntryState] = []
    var selectedTab = 0
    var alert: Alert?

    func slot(of entryID: String) -> EntrySlot? {
        if root?.id == entryID { return .root }
        if let index = tabs.firstIndex(where: { $0.id == entryID }) { return .tab(index) }
        if let index = stack.firstIndex(where: { $0.id == entryID }) { return .stack(index) }
        return nil
    }

    func entry(_ slot: EntrySlot) -> EntryState? {
        switch slot {
        case .root: return root
        case .tab(let index): return tabs.indices.contains(index) ? tabs[index] : nil
        case .stack(let index): return stack.indices.contains(index) ? stack[index] : nil
        }
    }

    /// The entry at the bottom of what this node shows: its root, or its selected tab.
    var baseEntry: EntryState? {
        kind == .tab ? (tabs.indices.contains(selectedTab) ? tabs[selectedTab] : nil) : root
    }
}

/// Everything a transaction may change; copied at the start of a transaction and put back on failure.
struct EngineStorage {
    var version = 0
    var rootNode = ""
    var nodes: [String: NodeState] = [:]
    var coordinators: [String: any Coordinatable] = [:]
    var screens: [String: any Screen] = [:]
    /// Item id → the node whose entry it is.
    var itemOwner: [String: String] = [:]
    var dismissCallbacks: [String: () -> Void] = [:]
    var pendingDeepLink: String?
    var nextID = 1
}

/// What a running transaction has done, for the hooks fired after it commits.
struct Journal {
    var changed = false
    var started: [String] = []
    var finished: [(coordinator: any Coordinatable, parent: (any Coordinatable)?)] = []
    var dismissed: [() -> Void] = []
}
