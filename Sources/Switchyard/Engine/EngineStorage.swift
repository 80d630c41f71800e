/// Where an entry sits in its coordinator.
enum EntrySlot: Equatable {
    case root
    case tab(Int)
    case stack(Int)
}

/// What an entry shows.
enum EntryContent: Equatable {
    case screen
    case coordinator(NodeID)

    var nodeID: NodeID? {
        if case .coordinator(let id) = self { return id }
        return nil
    }
}

/// One entry of the tree: a root, a tab or a stack item.
struct EntryState {
    let id: ItemID
    let route: String
    let input: JSONValue?
    /// nil for root and tab entries.
    let presentation: Presentation?
    var animated: Bool
    let dismissible: Bool
    let content: EntryContent
    /// Whether its route's output ``ProducesResult`` (its opener hears how it ended).
    let producesResult: Bool
}

/// One coordinator of the tree.
struct NodeState {
    let id: NodeID
    let typeName: String
    let kind: CoordinatorKind
    /// The parent node and the entry of the parent that hosts this node; nil for the root coordinator.
    var parent: NodeID?
    var host: ItemID?
    var root: EntryState?
    var stack: [EntryState] = []
    var tabs: [EntryState] = []
    var selectedTab = 0
    /// The alert shown, if any. Boxed: few nodes show one, and every node is stored inline in the engine's
    /// dictionary (8 bytes instead of 40 per node).
    var alert: Alert? {
        get { shownAlert?.alert }
        set { shownAlert = newValue.map(ShownAlert.init) }
    }
    private var shownAlert: ShownAlert?

    init(id: NodeID, typeName: String, kind: CoordinatorKind, parent: NodeID?, host: ItemID?) {
        self.id = id
        self.typeName = typeName
        self.kind = kind
        self.parent = parent
        self.host = host
    }

    func slot(of entryID: ItemID) -> EntrySlot? {
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
    /// Every entry: its root or tabs, then its stack.
    var entries: [EntryState] {
        [root].compactMap { $0 } + tabs + stack
    }

    var baseEntry: EntryState? {
        kind == .tab ? (tabs.indices.contains(selectedTab) ? tabs[selectedTab] : nil) : root
    }
}

/// An alert a node shows, boxed (``NodeState/alert``); never changed in place, so nodes that share one stay values.
private final class ShownAlert {
    let alert: Alert

    init(_ alert: Alert) {
        self.alert = alert
    }
}

/// What the tree keeps for one item.
struct ItemRecord {
    /// The node whose entry the item is.
    let owner: NodeID
    /// The screen the item shows; nil when it hosts a coordinator.
    let screen: (any Screen)?
}

/// Everything a transaction may change; copied at the start of a transaction and put back on failure.
struct EngineStorage {
    var version = 0
    var rootNode = NodeID(0)
    var nodes: [NodeID: NodeState] = [:]
    var coordinators: [NodeID: any Coordinatable] = [:]
    /// Every item of the tree: whose entry it is, and its screen. One dictionary (not one per field): a
    /// transaction copies each dictionary it changes once, so each one less is a copy less per push and pop.
    var items: [ItemID: ItemRecord] = [:]
    var dismissCallbacks: [ItemID: () -> Void] = [:]
    /// The result handlers given when routing (`route(to:onResult:)`), by the item they wait for.
    var resultCallbacks: [ItemID: (DeliveredOutcome) throws -> Void] = [:]
    var pendingDeepLink: String?
    /// A guarded route waiting for its guard to allow it (after a redirect).
    var pendingRoute: PendingRoute?
    var nextID = 1
}

extension EngineStorage {
    /// Changes the node `id` in place; a node that is not in the tree is ``NavigationError/coordinatorNotFound(_:)``.
    @discardableResult
    mutating func modify<Result>(_ id: NodeID, _ body: (inout NodeState) throws -> Result) throws -> Result {
        guard let index = nodes.index(forKey: id) else { throw NavigationError.coordinatorNotFound(id.description) }
        return try body(&nodes.values[index])
    }

    /// The coordinator at node `id`; one that is not in the tree is ``NavigationError/coordinatorNotFound(_:)``.
    func coordinator(_ id: NodeID) throws -> any Coordinatable {
        guard let coordinator = coordinators[id] else { throw NavigationError.coordinatorNotFound(id.description) }
        return coordinator
    }
}

/// What a running transaction has done, for the hooks fired after it commits.
struct Journal {
    var changed = false
    /// What undoes changes made outside the tree (``NavigationEngine/onRollback(_:)``), in the order they were made.
    var undo: [() -> Void] = []
    var started: [NodeID] = []
    var finished: [(reference: CoordinatorReference, coordinator: any Coordinatable, parent: (any Coordinatable)?)] = []
    var dismissed: [() -> Void] = []
    /// The values items are finishing with (`finish`), until their removal turns them into deliveries.
    var finishing: [ItemID: DeliveredOutcome] = [:]
    /// Outcomes to hand to their openers before the transaction commits, in order.
    var deliveries: [ResultDelivery] = []
}

/// An outcome on its way to the coordinator that opened the item.
struct ResultDelivery {
    /// The item that left.
    let item: ItemID
    /// The opener: the coordinator whose stack held the item, and its node.
    let opener: any Coordinatable
    let owner: NodeID
    /// The item's route.
    let route: String
    let outcome: DeliveredOutcome
    /// The handler given when routing, if any (else the route's declared one).
    let callback: ((DeliveredOutcome) throws -> Void)?
}
