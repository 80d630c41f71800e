import Switchyard

/// A checked definition made ready to run: each coordinator's route table, built once and shared by every session.
final class CompiledDefinition: Sendable {
    let definition: AppDefinition
    private let tables: [String: RouteTable]

    init(_ definition: AppDefinition) {
        self.definition = definition
        var tables: [String: RouteTable] = [:]
        // The transitions reach back to this object to make what their targets name; it owns them.
        let box = CompiledReference()
        for coordinator in definition.coordinators {
            tables[coordinator.name] = RouteTable(
                typeName: coordinator.name,
                routes: coordinator.routes.map { route in
                    (route.name, DefinedTransition.make(route, in: definition, compiled: box))
                })
        }
        self.tables = tables
        box.compiled = self
    }

    func table(_ coordinator: String) -> RouteTable {
        tables[coordinator] ?? RouteTable(typeName: coordinator, routes: [])
    }

    /// What a coordinator of the named definition starts with.
    func context(
        _ name: String, input: JSONValue?, data: SessionData, savesState: Bool = false
    ) -> CoordinatorContext {
        // The check makes sure that every name a route targets is a coordinator or a screen.
        CoordinatorContext(
            definition: definition.coordinator(name) ?? CoordinatorDefinition.missing(name), table: table(name),
            compiled: self, input: input, data: data, savesState: savesState)
    }

    /// A new coordinator of the named definition, for a session's `data`.
    func makeCoordinator(_ name: String, input: JSONValue?, data: SessionData) -> any DefinedCoordinator {
        let context = context(name, input: input, data: data)
        switch context.definition.kind {
        case .root: return DefinedRootCoordinator(context)
        case .stack: return DefinedStackCoordinator(context)
        case .tabs: return DefinedTabCoordinator(context)
        }
    }
}

/// How transitions, made before their compiled definition exists, find it later (weakly: it owns them).
final class CompiledReference: @unchecked Sendable {
    // @unchecked: set once, in CompiledDefinition.init, before any transition can run.
    weak var compiled: CompiledDefinition?
}

extension CoordinatorDefinition {
    /// A stand-in for a name the check would have refused (never reached in a checked definition).
    static func missing(_ name: String) -> CoordinatorDefinition {
        CoordinatorDefinition(
            name: name, kind: .stack, initial: nil, initialInput: nil, tabs: [], selected: 0, addedLater: [],
            routes: [], events: [])
    }
}
