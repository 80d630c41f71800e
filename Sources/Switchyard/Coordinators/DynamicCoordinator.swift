/// A coordinator whose routes and events are data rather than Swift declarations: one Swift class serves many
/// coordinator types, each instance bringing its type's name, route table and events (module
/// `SwitchyardDefinitions`). The engine treats it exactly like a declared coordinator.
package protocol DynamicCoordinator: Coordinatable {
    /// The routes of the coordinator's (declared) type; the table's `typeName` is that type's name.
    var routeTable: RouteTable { get }
    /// The flow events ``Coordinatable/handle(_:)`` takes.
    var flowEvents: [FlowEventDeclaration] { get }
    /// Whether its ``PersistentCoordinator/persistentState`` is saved with the session (one coordinator of a
    /// session keeps the data all of them share; the others conform only because their class does).
    var savesState: Bool { get }
}

extension Coordinatable {
    /// The flow events this coordinator declares: its type's ``Coordinatable/events``, or a dynamic coordinator's own.
    var declaredEvents: [FlowEventDeclaration] {
        (self as? any DynamicCoordinator)?.flowEvents ?? Self.events
    }
}
