/// What a route's guard decides each time the route would be entered (by a step, an event handler, a deep link or
/// a restore).
///
/// ```swift
/// @Route(.push, guardedBy: requireAdmin) var admin = makeAdmin
///
/// func requireAdmin() -> RouteGuardDecision {
///     adminMode ? .allow : .redirect([Step(.hasRoot(route: "authenticated")), Step(.focus(route: "profile"))])
/// }
/// ```
public enum RouteGuardDecision: Sendable, Hashable {
    /// Enter the route.
    case allow
    /// Do not enter it: the operation fails with this problem (HTTP 403, `code` as given) and nothing changes.
    case refuse(code: String, message: String)
    /// Do not enter it yet: the operation is replaced by these steps, applied from the root coordinator (e.g. to a
    /// login screen), in one change. The route is kept as the session's pending route and entered, in a change of
    /// its own, after the first later change that makes its guard allow it.
    case redirect([Step])
}
