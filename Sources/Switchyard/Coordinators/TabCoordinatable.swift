/// A coordinator with tabs: each tab has a tab item and its own content (and keeps its own stack); one is selected.
///
/// ```swift
/// final class AuthenticatedCoordinator: TabCoordinatable {
///     let tabs = TabNavigation(\AuthenticatedCoordinator.home, \AuthenticatedCoordinator.todos)
///     @TabRoute(item: homeItem) var home = makeHome
///     @TabRoute(item: todosItem) var todos = makeTodos
///     func makeHome() -> HomeCoordinator { ... }
///     func homeItem() -> TabItem { TabItem(title: "Home", icon: "house") }
/// }
/// ```
public protocol TabCoordinatable: Coordinatable {
    /// The tabs declaration.
    var tabs: TabNavigation<Self> { get }

    /// Called when the user taps the tab that is already selected (e.g. to pop it to its root). Transitions made
    /// here join the gesture's transaction.
    func didReselectTab(_ route: String) throws
}

extension TabCoordinatable {
    public var binding: CoordinatorBinding { tabs }

    public func didReselectTab(_ route: String) throws {}

    /// Selects the first tab with that route and returns its coordinator (no wrappers: the content itself).
    /// Focusing the selected tab changes nothing.
    @discardableResult
    public func focus<Input, Output: Coordinatable>(
        _ route: KeyPath<Self, Transition<Self, Input, Output>>
    ) throws
        -> Output
    {
        let name = try routeName(route)
        return try operate { engine, node in
            try engine.coordinator(engine.focusTab(node, name), as: Output.self)
        }
    }

    /// Selects the first tab with that route and returns its coordinator (Stinsen's name for `focus(_:)`).
    @discardableResult
    public func focusFirst<Input, Output: Coordinatable>(
        _ route: KeyPath<Self, Transition<Self, Input, Output>>
    )
        throws -> Output
    {
        try focus(route)
    }

    /// Selects a tab whose content is a screen; returns `self`.
    @discardableResult
    public func focus<Input, Output: Screen>(_ route: KeyPath<Self, Transition<Self, Input, Output>>) throws -> Self {
        let name = try routeName(route)
        try operate { engine, node in _ = try engine.focusTab(node, name) }
        return self
    }

    /// Appends a tab at run time (Koordinator's `show` on a tab bar); returns `self`.
    @discardableResult
    public func addTab<Output>(
        _ route: KeyPath<Self, Transition<Self, Void, Output>>, select: Bool = false
    ) throws
        -> Self
    {
        let name = try routeName(route)
        try operate { engine, node in _ = try engine.addTab(node, name, input: nil, select: select) }
        return self
    }

    /// Appends a tab made from `input`; returns `self`.
    @discardableResult
    public func addTab<Input: Codable & Sendable, Output>(
        _ route: KeyPath<Self, Transition<Self, Input, Output>>, _ input: Input, select: Bool = false
    ) throws -> Self {
        let name = try routeName(route)
        let value = try json(input, route: name)
        try operate { engine, node in _ = try engine.addTab(node, name, input: value, select: select) }
        return self
    }

    /// Removes the tab with that item id; the last tab cannot be removed.
    @discardableResult
    public func removeTab(item: ItemID) throws -> Self {
        try operate { engine, node in _ = try engine.removeTab(node, item: item) }
        return self
    }

    /// The selected tab's route name.
    public var selectedTab: String? {
        guard let engine, let node = nodeID, let state = engine.storage.nodes[node] else { return nil }
        return state.baseEntry?.route
    }

    /// The tab route names in order.
    public var tabRoutes: [String] {
        guard let engine, let node = nodeID, let state = engine.storage.nodes[node] else { return [] }
        return state.tabs.map(\.route)
    }
}
