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

    /// What its templates and conditions read, with `extra` members (`payload`, `fields`, `result`, …).
    func templateContext(_ extra: [String: JSONValue] = [:]) -> TemplateContext {
        var values = extra
        values["data"] = context.data.value
        values["coordinator"] = .object(["input": context.input ?? .null])
        return TemplateContext(values)
    }

    func handle(_ event: FlowEvent) throws -> Bool {
        guard let definition = context.definition.events.first(where: { $0.declaration.name == event.name }) else {
            return false
        }
        let values: [String: JSONValue] = [
            "payload": event.payload, "fields": .object(event.fields.mapValues { .string($0) }),
        ]
        try run(definition.handler, values)
        return !definition.handler.bubble
    }

    /// Runs a handler inside the running transaction: requirements, data operations, then steps from here. The data
    /// comes back as it was if the transaction is rolled back.
    func run(_ handler: Handler, _ values: [String: JSONValue]) throws {
        let scope = templateContext(values)
        for requirement in handler.requirements where !requirement.condition.holds(in: scope) {
            throw NavigationError(
                code: requirement.code, category: .invalidInput, message: requirement.message.render(scope))
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
            context.data.value = data
            let shared = context.data
            engine?.onRollback { shared.value = before }
        }
        guard !handler.steps.isEmpty, let engine, let nodeID else { return }
        var after = scope
        after.values["data"] = context.data.value
        let steps = try handler.steps.map { try $0.step(after) }
        try engine.perform(steps, from: nodeID)
    }
}
