/// Coordinators with a current `@Root` route they can switch: root and navigation coordinators.
public protocol RootSwitchable: Coordinatable {}

extension RootSwitchable {
    /// Switches to a `@Root` screen route. Same route and input: nothing changes; otherwise everything the old root
    /// had stacked or presented is removed.
    @discardableResult
    public func root<Output: Screen>(
        _ route: KeyPath<Self, Transition<Self, Void, Output>>, animated: Bool = true
    )
        throws -> Self
    {
        let name = try routeName(route)
        try operate { engine, node in _ = try engine.switchRoot(node, name, input: nil, animated: animated) }
        return self
    }

    /// Switches to a `@Root` screen route made from `input`.
    @discardableResult
    public func root<Input: Codable & Sendable, Output: Screen>(
        _ route: KeyPath<Self, Transition<Self, Input, Output>>, _ input: Input, animated: Bool = true
    ) throws -> Self {
        let name = try routeName(route)
        let value = try json(input, route: name)
        try operate { engine, node in _ = try engine.switchRoot(node, name, input: value, animated: animated) }
        return self
    }

    /// Switches to a `@Root` coordinator route; returns the root coordinator (the existing one if nothing changed).
    @discardableResult
    public func root<Output: Coordinatable>(
        _ route: KeyPath<Self, Transition<Self, Void, Output>>, animated: Bool = true
    ) throws -> Output {
        let name = try routeName(route)
        return try operate { engine, node in
            try engine.coordinator(engine.switchRoot(node, name, input: nil, animated: animated), as: Output.self)
        }
    }

    /// Switches to a `@Root` coordinator route made from `input`; returns the root coordinator.
    @discardableResult
    public func root<Input: Codable & Sendable, Output: Coordinatable>(
        _ route: KeyPath<Self, Transition<Self, Input, Output>>, _ input: Input, animated: Bool = true
    ) throws -> Output {
        let name = try routeName(route)
        let value = try json(input, route: name)
        return try operate { engine, node in
            try engine.coordinator(engine.switchRoot(node, name, input: value, animated: animated), as: Output.self)
        }
    }

    /// True when the current root route is `route`.
    public func isRoot<Input, Output>(_ route: KeyPath<Self, Transition<Self, Input, Output>>) -> Bool {
        guard let engine, let node = nodeID, let name = try? routeName(route) else { return false }
        return engine.storage.nodes[node]?.root?.route == name
    }

    /// The current root's coordinator if the current root route is `route`, else nil.
    public func hasRoot<Input, Output: Coordinatable>(
        _ route: KeyPath<Self, Transition<Self, Input, Output>>
    )
        -> Output?
    {
        guard let engine, let node = nodeID, let name = try? routeName(route),
            let root = engine.storage.nodes[node]?.root, root.route == name, let child = root.content.nodeID
        else { return nil }
        return engine.storage.nodes[child]?.coordinator as? Output
    }

    /// The current root's coordinator, typed; throws if the root shows a screen or another type.
    public func child<C: Coordinatable>(as type: C.Type) throws -> C {
        try operate { engine, node in try engine.coordinator(engine.child(node), as: C.self) }
    }

    /// The current root route name.
    public var currentRoot: String? {
        guard let engine, let node = nodeID else { return nil }
        return engine.storage.nodes[node]?.root?.route
    }
}
