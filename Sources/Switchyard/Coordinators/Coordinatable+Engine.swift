/// Plumbing shared by the typed operations: find the engine, resolve key paths to route names, type results.
extension Coordinatable {
    /// The engine whose tree holds this coordinator, if any.
    public var engine: NavigationEngine? {
        binding.engine
    }

    /// This coordinator's node id in its engine's tree (e.g. `n5`), if it is in one.
    public var nodeID: NodeID? {
        guard let engine = binding.engine, let id = binding.nodeID, engine.storage.nodes[id] != nil else { return nil }
        return id
    }

    /// Runs an operation on this coordinator's node inside a transaction.
    func operate<Result>(_ body: (NavigationEngine, NodeID) throws -> Result) throws -> Result {
        guard let engine = binding.engine else {
            throw NavigationError.detached(String(describing: type(of: self)))
        }
        return try engine.transaction {
            try body(engine, try engine.node(of: self))
        }
    }

    /// The route name a key path points at.
    func routeName<Input, Output>(_ route: KeyPath<Self, Transition<Self, Input, Output>>) throws -> String {
        guard let name = (binding.table ?? RouteTable.of(self)).name(for: route, in: self) else {
            throw NavigationError(
                code: "undeclaredRoute", category: .invalidRequest,
                message: "the key path does not point at a @Root, @Route or @TabRoute of \(type(of: self))")
        }
        return name
    }

    /// Encodes a typed input for the by-name engine.
    func json<Input: Encodable>(_ input: Input, route: String) throws -> JSONValue {
        do {
            return try JSONValue(encoding: input)
        } catch {
            throw NavigationError.invalidInput(
                route: route, expected: String(describing: Input.self), reason: String(describing: error))
        }
    }

    /// Sends a flow event from this coordinator (it handles first, then its parents).
    /// - Returns: The coordinator that handled it.
    @discardableResult
    public func send(_ event: FlowEvent) throws -> any Coordinatable {
        try operate { engine, node in
            let handler = try engine.send(event, from: node)
            return try engine.storage.coordinator(handler)
        }
    }

    /// Shows an alert from this coordinator. Its actions' events are sent from this coordinator when chosen.
    @discardableResult
    public func presentAlert(title: String, message: String? = nil, actions: [AlertAction] = []) throws -> Self {
        try operate { engine, node in
            _ = try engine.presentAlert(node, Alert(title: title, message: message, actions: actions))
        }
        return self
    }

    /// Answers this coordinator's alert with the action at `choice`.
    @discardableResult
    public func respondToAlert(choice: Int) throws -> Self {
        try operate { engine, node in _ = try engine.respondToAlert(node, choice: choice) }
        return self
    }

    /// Dismisses the presentation layer this coordinator is in (the nearest sheet or cover at or below it, and
    /// everything above): a presented coordinator dismisses itself, with the sheets it presented. Pushed outside any
    /// sheet, it is removed with everything above it. At the base of what is shown (the root coordinator, a tab's
    /// content, a parent's root content), it closes the topmost sheet or cover of its own stack, with everything
    /// pushed above it, as UIKit's `dismiss` on a presenting controller does: so a Done button on a screen presented
    /// as a sheet on a tab's stack closes the sheet. Throws when there is nothing to dismiss.
    public func dismiss() throws {
        try operate { engine, node in _ = try engine.dismiss(node) }
    }

    /// Removes this coordinator's item, and everything above it, from its parent.
    public func dismissCoordinator() throws {
        try operate { engine, node in _ = try engine.dismissCoordinator(node) }
    }

    /// The coordinator of type `C` nearest the visible screen (Stinsen's `RouterStore`).
    public func router<C>(_ type: C.Type) -> C? {
        binding.engine?.nearest(type)
    }

    /// Presents a screen route as a modal (or `.fullScreen`).
    @discardableResult
    public func present<Output: Screen>(
        _ route: KeyPath<Self, Transition<Self, Void, Output>>, as presentation: Presentation? = nil,
        animated: Bool = true, onDismiss: (() -> Void)? = nil
    ) throws -> Self {
        let name = try routeName(route)
        try operate { engine, node in
            _ = try engine.present(
                node, name, input: nil, presentation: presentation, animated: animated, onDismiss: onDismiss)
        }
        return self
    }

    /// Presents a screen route with input.
    @discardableResult
    public func present<Input: Codable & Sendable, Output: Screen>(
        _ route: KeyPath<Self, Transition<Self, Input, Output>>, _ input: Input, as presentation: Presentation? = nil,
        animated: Bool = true, onDismiss: (() -> Void)? = nil
    ) throws -> Self {
        let name = try routeName(route)
        let value = try json(input, route: name)
        try operate { engine, node in
            _ = try engine.present(
                node, name, input: value, presentation: presentation, animated: animated, onDismiss: onDismiss)
        }
        return self
    }

    /// Presents a coordinator route; returns the presented coordinator.
    @discardableResult
    public func present<Output: Coordinatable>(
        _ route: KeyPath<Self, Transition<Self, Void, Output>>, as presentation: Presentation? = nil,
        animated: Bool = true, onDismiss: (() -> Void)? = nil
    ) throws -> Output {
        let name = try routeName(route)
        return try operate { engine, node in
            try engine.coordinator(
                engine.present(
                    node, name, input: nil, presentation: presentation, animated: animated, onDismiss: onDismiss),
                as: Output.self)
        }
    }

    /// Presents a coordinator route with input; returns the presented coordinator.
    @discardableResult
    public func present<Input: Codable & Sendable, Output: Coordinatable>(
        _ route: KeyPath<Self, Transition<Self, Input, Output>>, _ input: Input, as presentation: Presentation? = nil,
        animated: Bool = true, onDismiss: (() -> Void)? = nil
    ) throws -> Output {
        let name = try routeName(route)
        let value = try json(input, route: name)
        return try operate { engine, node in
            try engine.coordinator(
                engine.present(
                    node, name, input: value, presentation: presentation, animated: animated, onDismiss: onDismiss),
                as: Output.self)
        }
    }
}
