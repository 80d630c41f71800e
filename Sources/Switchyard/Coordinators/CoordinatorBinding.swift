/// A coordinator's link to the engine that owns it, and the content it starts with.
///
/// You create one of its subclasses as a stored property — ``NavigationStack``, ``RootNavigation`` or
/// ``TabNavigation`` — and the engine fills in the rest when the coordinator enters its tree.
public class CoordinatorBinding {
    let kind: CoordinatorKind
    weak var engine: NavigationEngine?
    var nodeID: NodeID?
    /// The routes of the coordinator's type, kept here once it is in a tree (saves a global, locked look-up).
    var table: RouteTable?

    init(kind: CoordinatorKind) {
        self.kind = kind
    }

    /// The initial root route name and input (root and navigation kinds).
    func initialRoot(of owner: AnyObject) -> (name: String, input: JSONValue?)? { nil }

    /// The initial tab route names and the selected index (tab kind).
    func initialTabs(of owner: AnyObject) -> (names: [String], selected: Int)? { nil }

    /// The tabs a tab binding lists, shown at first and added later, each nil where the key path names no route
    /// (for ``NavigationApp/check()``); nil for other kinds.
    func listedTabs(of owner: AnyObject) -> (initial: [String?], later: [String?])? { nil }
}

/// A binding that starts at a `@Root` route (the base of ``NavigationStack`` and ``RootNavigation``).
public class RootBinding<Owner: AnyObject>: CoordinatorBinding {
    /// A route by key path (Swift declarations) or by name (coordinators declared as data).
    enum Reference {
        case keyPath(PartialKeyPath<Owner>)
        case name(String)

        func name(in owner: Owner) -> String? {
            switch self {
            case .keyPath(let keyPath): RouteTable.of(owner).name(for: keyPath, in: owner)
            case .name(let name): RouteTable.of(owner).routes[name] == nil ? nil : name
            }
        }
    }

    let initial: Reference
    let initialInput: JSONValue?

    init(kind: CoordinatorKind, initial: Reference, input: JSONValue?) {
        self.initial = initial
        initialInput = input
        super.init(kind: kind)
    }

    override func initialRoot(of owner: AnyObject) -> (name: String, input: JSONValue?)? {
        guard let owner = owner as? Owner, let name = initial.name(in: owner),
            RouteTable.of(owner).routes[name]?.kind == .root
        else { return nil }
        return (name, initialInput)
    }
}

/// The stack of a ``NavigationCoordinatable``: `let stack = NavigationStack(initial: \TodosCoordinator.list)`.
public final class NavigationStack<Owner: AnyObject>: RootBinding<Owner> {
    /// A stack starting at a `@Root` route without input.
    public init<Output>(initial: KeyPath<Owner, Transition<Owner, Void, Output>>) {
        super.init(kind: .navigation, initial: .keyPath(initial), input: nil)
    }

    /// A stack starting at a `@Root` route with input.
    public init<Input: Codable & Sendable, Output>(
        initial: KeyPath<Owner, Transition<Owner, Input, Output>>, _ input: Input
    ) {
        super.init(kind: .navigation, initial: .keyPath(initial), input: try? JSONValue(encoding: input))
    }

    /// A stack starting at the root route named `initialRoute` (a coordinator declared as data).
    package init(initialRoute: String, input: JSONValue?) {
        super.init(kind: .navigation, initial: .name(initialRoute), input: input)
    }
}

/// The root of a ``RootCoordinatable``: `let navigation = RootNavigation(initial: \AppCoordinator.onboarding)`.
public final class RootNavigation<Owner: AnyObject>: RootBinding<Owner> {
    /// A root starting at a `@Root` route without input.
    public init<Output>(initial: KeyPath<Owner, Transition<Owner, Void, Output>>) {
        super.init(kind: .root, initial: .keyPath(initial), input: nil)
    }

    /// A root starting at a `@Root` route with input.
    public init<Input: Codable & Sendable, Output>(
        initial: KeyPath<Owner, Transition<Owner, Input, Output>>, _ input: Input
    ) {
        super.init(kind: .root, initial: .keyPath(initial), input: try? JSONValue(encoding: input))
    }

    /// A root starting at the root route named `initialRoute` (a coordinator declared as data).
    package init(initialRoute: String, input: JSONValue?) {
        super.init(kind: .root, initial: .name(initialRoute), input: input)
    }
}

/// The tabs of a ``TabCoordinatable``:
/// `let tabs = TabNavigation(\AuthenticatedCoordinator.home, \AuthenticatedCoordinator.todos)`.
///
/// Every `@TabRoute` of the coordinator is listed: among the tabs shown from the start, or in `addedLater` when
/// `addTab` adds it. ``NavigationApp/check()`` (run before a server serves) refuses a tab route listed in neither.
public final class TabNavigation<Owner: AnyObject>: CoordinatorBinding {
    let tabs: [RootBinding<Owner>.Reference]
    let later: [RootBinding<Owner>.Reference]
    let selected: Int

    /// Tabs in order; `selected` is the index of the tab shown first; `addedLater`, the tab routes `addTab` adds.
    public init(_ tabs: PartialKeyPath<Owner>..., selected: Int = 0, addedLater: [PartialKeyPath<Owner>] = []) {
        self.tabs = tabs.map { .keyPath($0) }
        later = addedLater.map { .keyPath($0) }
        self.selected = selected
        super.init(kind: .tab)
    }

    /// Tabs by route name (a coordinator declared as data).
    package init(routes: [String], selected: Int, addedLater: [String]) {
        tabs = routes.map { .name($0) }
        later = addedLater.map { .name($0) }
        self.selected = selected
        super.init(kind: .tab)
    }

    override func listedTabs(of owner: AnyObject) -> (initial: [String?], later: [String?])? {
        guard let owner = owner as? Owner else { return nil }
        let table = RouteTable.of(owner)
        func tab(_ reference: RootBinding<Owner>.Reference) -> String? {
            reference.name(in: owner).flatMap { table.routes[$0]?.kind == .tab ? $0 : nil }
        }
        return (tabs.map(tab), later.map(tab))
    }

    override func initialTabs(of owner: AnyObject) -> (names: [String], selected: Int)? {
        guard let (listed, _) = listedTabs(of: owner) else { return nil }
        let names = listed.compactMap { $0 }
        guard names.count == tabs.count, !names.isEmpty else { return nil }
        return (names, min(max(selected, 0), names.count - 1))
    }
}
