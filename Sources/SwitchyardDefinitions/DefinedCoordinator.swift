import Switchyard

/// The behaviour the three classes of defined coordinators (root, stack, tabs) share: their type is their
/// definition's, and their events run the definition's handlers.
protocol DefinedCoordinator: DynamicCoordinator, PersistentCoordinator where PersistentState == JSONValue {
    var context: CoordinatorContext { get }
}

extension DefinedCoordinator {
    var routeTable: RouteTable { context.table }
    var flowEvents: [FlowEventDeclaration] { context.definition.events.map(\.declaration) }
    var savesState: Bool { context.savesState }

    /// The session data (only the coordinator that ``savesState`` has it saved).
    var persistentState: JSONValue {
        get { context.data.value }
        set { context.data.value = newValue }
    }

    /// What its templates and conditions read, with `extra` members (`payload`, `fields`, `result`, …) and the
    /// coordinator's own bindings (`let`).
    func templateContext(_ extra: [String: JSONValue] = [:]) -> TemplateContext {
        var values = extra
        values["data"] = context.data.value
        values["coordinator"] = .object(["input": context.input ?? .null])
        var scope = TemplateContext(values)
        if let engine {
            scope.isOpen = { name in engine.containsCoordinator(ofType: name) }
        }
        return scope.binding(context.definition.bindings)
    }

    func customize(_ decoration: inout Decoration) {
        guard let defined = context.definition.decoration else { return }
        defined.apply(to: &decoration, templateContext())
    }

    func handle(_ event: FlowEvent) throws -> Bool {
        guard let definition = context.definition.events.first(where: { $0.declaration.name == event.name }) else {
            return false
        }
        let values: [String: JSONValue] = [
            "payload": event.payload, "fields": .object(event.fields.mapValues { .string($0) }),
        ]
        guard let bubble = try respond(definition.reaction, values) else { return false }
        return !bubble
    }

    /// Runs the first case of `reaction` whose `when` holds; nil when none does, else whether the event goes on
    /// to the parent coordinators.
    func respond(_ reaction: Reaction, _ values: [String: JSONValue]) throws -> Bool? {
        let scope = templateContext(values).binding(reaction.bindings)
        guard let handler = reaction.cases.first(where: { $0.when?.holds(in: scope) ?? true }) else { return nil }
        try run(handler, scope)
        return handler.bubble
    }

    /// Runs a handler inside the running transaction: requirements, data operations, then steps from here (or from
    /// its `from`). The data comes back as it was if the transaction is rolled back.
    func run(_ handler: Handler, _ scope: TemplateContext) throws {
        for requirement in handler.requirements where !requirement.condition.holds(in: scope) {
            throw NavigationError(
                code: requirement.code, category: requirement.category, message: requirement.message.render(scope))
        }
        if !handler.data.isEmpty {
            let before = context.data.value
            var data = before
            do {
                for operation in handler.data {
                    var current = scope
                    current.values["data"] = data
                    data = try operation.apply(to: data, current)
                }
            } catch let error as DataError {
                throw NavigationError(code: "dataOperationFailed", category: .conflict, message: error.description)
            }
            try scope.requireWithinBudget()
            context.data.value = data
            let shared = context.data
            engine?.onRollback { shared.value = before }
        }
        guard !handler.steps.isEmpty, let engine, let nodeID else { return }
        var after = scope
        after.values["data"] = context.data.value
        let steps = try handler.steps.map { try $0.step(after) }
        try scope.requireWithinBudget()
        guard let from = handler.from else {
            try engine.perform(steps, from: nodeID)
            return
        }
        guard let start = engine.nearestCoordinator(ofType: from) else {
            throw NavigationError.coordinatorNotFound(from)
        }
        try engine.perform(steps, from: start)
    }
}
