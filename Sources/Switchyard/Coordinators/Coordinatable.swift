/// A coordinator: an object that owns a piece of navigation and the routes it can take.
///
/// Adopt one of the three kinds — ``RootCoordinatable``, ``NavigationCoordinatable`` or ``TabCoordinatable`` — rather
/// than this protocol directly. Coordinators are created by route factories (or by the app for the root) and owned by
/// a ``NavigationEngine`` while they are in its tree. Every hook has a default that does nothing.
public protocol Coordinatable: AnyObject, SendableMetatype {
    /// Where the engine keeps this coordinator's place in the tree; supplied by the kind protocols.
    var binding: CoordinatorBinding { get }

    /// Called after the transaction that put this coordinator into the tree committed.
    func onStart()
    /// Called after the transaction that removed this coordinator from the tree committed (deepest first).
    func onFinish()
    /// Called on the parent after a child coordinator finished.
    func childDidFinish(_ child: any Coordinatable)
    /// Handles a flow event; return true to stop it bubbling further up. Transitions made here join the event's
    /// transaction; throwing aborts it.
    func handle(_ event: FlowEvent) throws -> Bool
    /// The flow events ``handle(_:)`` takes, for the catalog and for the answer to an event nobody handled (it
    /// lists the events declared from the sender up). Default: none declared.
    static var events: [FlowEventDeclaration] { get }
    /// Decorates what this coordinator renders (titles, bar visibility, tint, tab-bar style, badges).
    func customize(_ decoration: inout Decoration)
    /// Asked before a user gesture (back, dismiss) removes one of this coordinator's items.
    func shouldLeave(route: String, item: String, gesture: Gesture) -> LeaveDecision
}

extension Coordinatable {
    public func onStart() {}
    public func onFinish() {}
    public func childDidFinish(_ child: any Coordinatable) {}
    public func handle(_ event: FlowEvent) throws -> Bool { false }
    public static var events: [FlowEventDeclaration] { [] }
    public func customize(_ decoration: inout Decoration) {}
    public func shouldLeave(route: String, item: String, gesture: Gesture) -> LeaveDecision { .allow }
}
