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
///
/// Its fields are ordered so that it packs into 48 bytes: every node holds its root inline in the engine's dictionary,
/// and stacks and tabs are arrays of them.
struct EntryState {
    let id: ItemID
    let route: String
    /// Boxed: most entries have none, and a JSON value takes 24 bytes inline (8 boxed).
    private let boxedInput: Indirect<JSONValue>?
    let content: EntryContent
    /// nil for root and tab entries.
    let presentation: Presentation?
    var animated: Bool
    let dismissible: Bool
    /// Whether its route's output ``ProducesResult`` (its opener hears how it ended).
    let producesResult: Bool

    init(
        id: ItemID, route: String, input: JSONValue?, presentation: Presentation?, animated: Bool, dismissible: Bool,
        content: EntryContent, producesResult: Bool
    ) {
        self.id = id
        self.route = route
        self.boxedInput = input.map(Indirect.value)
        self.content = content
        self.presentation = presentation
        self.animated = animated
        self.dismissible = dismissible
        self.producesResult = producesResult
    }

    /// The input its route was entered with; nil for none.
    var input: JSONValue? { boxedInput?.value }
}

/// One coordinator of the tree.
///
/// Stored inline in the engine's dictionary, which a transaction copies when it changes a node: its fields are
/// ordered (the widest first, the optional and one-byte ones last) so that it packs into 128 bytes.
struct NodeState {
    let id: NodeID
    /// Its coordinator type's routes (shared by every node of the type; 8 bytes where its name takes 16).
    let table: RouteTable
    /// The app's coordinator at this node. Kept with the node, not in a dictionary of its own: each dictionary
    /// costs an engine its buckets and header (264 bytes for the demo's five coordinators).
    let coordinator: any Coordinatable
    var root: EntryState?
    var stack: [EntryState] = []
    var tabs: [EntryState] = []
    /// The alert shown, if any. Boxed: few nodes show one (8 bytes instead of 40 per node).
    var alert: Alert? {
        get { shownAlert?.alert }
        set { shownAlert = newValue.map(ShownAlert.init) }
    }
    private var shownAlert: ShownAlert?
    /// Where it is attached: nil for the root coordinator.
    private let attachment: Attachment?
    let kind: CoordinatorKind
    private var selectedTabIndex: Int32 = 0

    init(
        id: NodeID, coordinator: any Coordinatable, table: RouteTable, kind: CoordinatorKind, parent: NodeID?,
        host: ItemID?
    ) {
        self.id = id
        self.coordinator = coordinator
        self.table = table
        self.kind = kind
        attachment = parent.flatMap { parent in host.map { Attachment(parent: parent, host: $0) } }
    }

    /// Its coordinator's type name.
    var typeName: String { table.typeName }

    /// The index of the selected tab (0 for a node without tabs).
    var selectedTab: Int {
        get { Int(selectedTabIndex) }
        set { selectedTabIndex = Int32(clamping: newValue) }
    }

    /// The parent node; nil for the root coordinator.
    var parent: NodeID? { attachment?.parent }
    /// The entry of the parent that hosts this node; nil for the root coordinator.
    var host: ItemID? { attachment?.host }

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

/// A node's parent and the parent's entry that hosts it (one optional, not two: 8 bytes less per node).
private struct Attachment {
    let parent: NodeID
    let host: ItemID
}

/// An alert a node shows, boxed (``NodeState/alert``); never changed in place, so nodes that share one stay values.
private final class ShownAlert {
    let alert: Alert

    init(_ alert: Alert) {
        self.alert = alert
    }
}

/// Everything a transaction may change; copied at the start of a transaction and put back on failure.
struct EngineStorage {
    var version = 0
    var rootNode = NodeID(0)
    var nodes: [NodeID: NodeState] = [:]
    /// The screen of every item that shows one (an item hosting a coordinator has none). Only screens: an item's
    /// node is found in the tree (``NavigationEngine/owner(of:)``), which holds few nodes, so the dictionary is
    /// sized for the tree's screens, not its items (for the demo's tabs 4 screens in 8 buckets of 48 bytes, where
    /// 7 items took 16 buckets of 56).
    var screens: [ItemID: any Screen] = [:]
    var dismissCallbacks: [ItemID: () -> Void] = [:]
    /// The result handlers given when routing (`route(to:onResult:)`), by the item they wait for.
    var resultCallbacks: [ItemID: (DeliveredOutcome) throws -> Void] = [:]
    var pendingDeepLink: String?
    /// A guarded route waiting for its guard to allow it (after a redirect). Boxed: rarely set, 72 bytes inline.
    var pendingRoute: PendingRoute? {
        get { boxedPendingRoute?.value }
        set { boxedPendingRoute = newValue.map(Indirect.value) }
    }
    private var boxedPendingRoute: Indirect<PendingRoute>?
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
        guard let coordinator = nodes[id]?.coordinator else {
            throw NavigationError.coordinatorNotFound(id.description)
        }
        return coordinator
    }
}

/// What a running transaction has done, for the hooks fired after it commits.
struct Journal {
    var changed = false
    /// Whether a restore rebuilt the tree: items may have come back with the ids they had.
    var restored = false
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
