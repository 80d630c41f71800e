/// Opening a route for its result, and finishing with one, from Swift.
extension NavigationCoordinatable {
    /// Routes (with the route's declared presentation) to a screen or coordinator that gives a value back; `handler`
    /// receives its outcome once, in the transaction that removes it, instead of the route's declared handler.
    ///
    /// The handler is a closure of this process: a session restored from a store has only the declared one
    /// (`@Route(onResult:)`).
    ///
    /// ```swift
    /// try home.route(to: \.pickFavourite) { outcome in
    ///     if case .finished(let id) = outcome { store.setFavourite(id, true) }
    /// }
    /// ```
    @discardableResult
    public func route<Output: ProducesResult>(
        to route: KeyPath<Self, Transition<Self, Void, Output>>, animated: Bool = true,
        onResult handler: @escaping (RouteOutcome<Output.ResultValue>) throws -> Void
    ) throws -> Self {
        try open(routeName(route), input: nil, animated: animated, handler)
    }

    /// Routes to a screen or coordinator made from `input` that gives a value back (see
    /// ``route(to:animated:onResult:)``).
    @discardableResult
    public func route<Input: Codable & Sendable, Output: ProducesResult>(
        to route: KeyPath<Self, Transition<Self, Input, Output>>, _ input: Input, animated: Bool = true,
        onResult handler: @escaping (RouteOutcome<Output.ResultValue>) throws -> Void
    ) throws -> Self {
        let name = try routeName(route)
        return try open(name, input: json(input, route: name), animated: animated, handler)
    }

    private func open<Value: Sendable>(
        _ name: String, input: JSONValue?, animated: Bool, _ handler: @escaping (RouteOutcome<Value>) throws -> Void
    ) throws -> Self {
        try operate { engine, node in
            _ = try engine.transition(of: node, named: name, kinds: [.route])
            _ = try engine.route(node, name, input: input, animated: animated)
            guard let item = engine.storage.nodes[node]?.stack.last?.id else { return }
            engine.storage.resultCallbacks[item] = { outcome in try outcome.deliver(to: handler) }
        }
        return self
    }
}

extension Coordinatable {
    /// Ends what this coordinator shows on top with `value` for whoever opened it: its top stack item when it has
    /// one, else this coordinator itself (removed from its parent's stack with everything above it). The opener's
    /// handler receives it in this transaction.
    ///
    /// - Throws: ``NavigationError/invalidResult(route:expected:reason:)`` when `value` is not of the route's
    ///   result type, ``NavigationError/noResultExpected(route:output:)``,
    ///   ``NavigationError/resultNotAwaited(route:)``, ``NavigationError/nothingToFinish(_:)``; nothing changes.
    public func finish<Value: Encodable>(with value: Value) throws {
        let result: JSONValue
        do {
            result = try JSONValue(encoding: value)
        } catch {
            throw NavigationError.invalidResult(
                route: String(describing: type(of: self)), expected: "JSON", reason: String(describing: error))
        }
        try operate { engine, node in _ = try engine.finish(node, result: result) }
    }
}
