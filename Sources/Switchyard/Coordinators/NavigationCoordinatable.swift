/// A coordinator with a navigation stack: a `@Root` at the bottom and pushed or presented items above it.
///
/// ```swift
/// final class TodosCoordinator: NavigationCoordinatable {
///     let stack = NavigationStack(initial: \TodosCoordinator.list)
///     @Root var list = makeList
///     @Route(.push) var todo = makeTodo
///     func makeList() -> TodoListScreen { TodoListScreen(store: store) }
///     func makeTodo(id: String) -> TodoScreen { TodoScreen(id: id, store: store) }
/// }
/// ```
/// A navigation coordinator pushed by another continues the same visible stack; its parent may still push above it.
public protocol NavigationCoordinatable: RootSwitchable {
    /// The stack declaration: which `@Root` route it starts at.
    var stack: NavigationStack<Self> { get }
}

extension NavigationCoordinatable {
    public var binding: CoordinatorBinding { stack }

    /// Routes to a screen with the route's declared presentation; returns `self` for chaining.
    @discardableResult
    public func route<Output: Screen>(
        to route: KeyPath<Self, Transition<Self, Void, Output>>, animated: Bool = true,
        onDismiss: (() -> Void)? = nil
    ) throws -> Self {
        let name = try routeName(route)
        try operate { engine, node in
            _ = try engine.route(node, name, input: nil, animated: animated, onDismiss: onDismiss)
        }
        return self
    }

    /// Routes to a screen made from `input`; returns `self`.
    @discardableResult
    public func route<Input: Codable & Sendable, Output: Screen>(
        to route: KeyPath<Self, Transition<Self, Input, Output>>, _ input: Input, animated: Bool = true,
        onDismiss: (() -> Void)? = nil
    ) throws -> Self {
        let name = try routeName(route)
        let value = try json(input, route: name)
        try operate { engine, node in
            _ = try engine.route(node, name, input: value, animated: animated, onDismiss: onDismiss)
        }
        return self
    }

    /// Routes to a child coordinator; returns the child.
    @discardableResult
    public func route<Output: Coordinatable>(
        to route: KeyPath<Self, Transition<Self, Void, Output>>, animated: Bool = true,
        onDismiss: (() -> Void)? = nil
    ) throws -> Output {
        let name = try routeName(route)
        return try operate { engine, node in
            try engine.coordinator(
                engine.route(node, name, input: nil, animated: animated, onDismiss: onDismiss), as: Output.self)
        }
    }

    /// Routes to a child coordinator made from `input`; returns the child.
    @discardableResult
    public func route<Input: Codable & Sendable, Output: Coordinatable>(
        to route: KeyPath<Self, Transition<Self, Input, Output>>, _ input: Input, animated: Bool = true,
        onDismiss: (() -> Void)? = nil
    ) throws -> Output {
        let name = try routeName(route)
        let value = try json(input, route: name)
        return try operate { engine, node in
            try engine.coordinator(
                engine.route(node, name, input: value, animated: animated, onDismiss: onDismiss), as: Output.self)
        }
    }

    /// Pushes a screen route whatever its declared style; returns `self`.
    @discardableResult
    public func push<Output: Screen>(
        _ route: KeyPath<Self, Transition<Self, Void, Output>>, animated: Bool = true
    )
        throws -> Self
    {
        let name = try routeName(route)
        try operate { engine, node in _ = try engine.push(node, name, input: nil, animated: animated) }
        return self
    }

    /// Pushes a screen route with input; returns `self`.
    @discardableResult
    public func push<Input: Codable & Sendable, Output: Screen>(
        _ route: KeyPath<Self, Transition<Self, Input, Output>>, _ input: Input, animated: Bool = true
    ) throws -> Self {
        let name = try routeName(route)
        let value = try json(input, route: name)
        try operate { engine, node in _ = try engine.push(node, name, input: value, animated: animated) }
        return self
    }

    /// Pushes several screen routes at once; only the last push is animated.
    @discardableResult
    public func push(stack routes: [PartialKeyPath<Self>], animated: Bool = true) throws -> Self {
        let table = RouteTable.of(self)
        let names = try routes.map { route in
            guard let name = table.name(for: route, in: self) else {
                throw NavigationError(
                    code: "undeclaredRoute", category: .invalidRequest,
                    message: "a key path does not point at a route of \(type(of: self))")
            }
            return Step.RouteReference(route: name)
        }
        try operate { engine, node in _ = try engine.pushStack(node, names, animated: animated) }
        return self
    }

    /// Removes the top item (pushed or presented). Throws when only the root is left.
    @discardableResult
    public func pop(animated: Bool = true) throws -> Self {
        try operate { engine, node in _ = try engine.pop(node) }
        return self
    }

    /// Removes the top item (Stinsen's name for ``pop(animated:)``).
    @discardableResult
    public func popLast(animated: Bool = true) throws -> Self {
        try pop(animated: animated)
    }

    /// Removes an item (by id) and everything above it (Stinsen's router `pop()`).
    @discardableResult
    public func pop(item: ItemID) throws -> Self {
        try operate { engine, node in _ = try engine.pop(node, item: item) }
        return self
    }

    /// Pops everything above the last (default) or first entry with that route; throws if it is not in the stack.
    @discardableResult
    public func pop<Input, Output>(
        to route: KeyPath<Self, Transition<Self, Input, Output>>, match: StackMatch = .last, animated: Bool = true
    ) throws -> Self {
        let name = try routeName(route)
        try operate { engine, node in _ = try engine.pop(node, to: name, match: match) }
        return self
    }

    /// Stinsen's `focusFirst`: pops everything above the first entry with that route; throws if it is absent.
    @discardableResult
    public func focusFirst<Input, Output>(_ route: KeyPath<Self, Transition<Self, Input, Output>>) throws -> Self {
        try pop(to: route, match: .first)
    }

    /// Clears the stack down to the root (nothing changes when it is already there).
    @discardableResult
    public func popToRoot(animated: Bool = true) throws -> Self {
        try operate { engine, node in _ = try engine.popToRoot(node) }
        return self
    }

    /// Koordinator's `show`: pushes the route (or switches root for a `@Root` route).
    @discardableResult
    public func show<Output: Screen>(_ route: KeyPath<Self, Transition<Self, Void, Output>>) throws -> Self {
        let name = try routeName(route)
        try operate { engine, node in _ = try engine.show(node, name, input: nil, animated: true) }
        return self
    }

    /// The route names on this coordinator's stack, root first.
    public var stackRoutes: [String] {
        guard let engine, let node = nodeID, let state = engine.storage.nodes[node] else { return [] }
        return [state.root?.route].compactMap { $0 } + state.stack.map(\.route)
    }
}
