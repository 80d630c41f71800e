/// The refusals of results and guards.
extension NavigationError {
    /// `finish` on an item whose route gives nothing back.
    public static func noResultExpected(route: String, output: String) -> Self {
        .init(
            code: "noResultExpected", category: .conflict,
            message: "'\(route)' shows \(output), which gives no result back (it is not ProducesResult); use pop or "
                + "dismiss")
    }

    /// `finish` on an item nobody waits for: opened without a handler, and its route declares none.
    public static func resultNotAwaited(route: String) -> Self {
        .init(
            code: "resultNotAwaited", category: .conflict,
            message: "nobody waits for the result of '\(route)': it was opened without a handler (handlers given "
                + "when routing do not outlive the process), and the route declares none (@Route(onResult:))")
    }

    /// `finish` with a result that does not decode as the route's result type.
    public static func invalidResult(route: String, expected: String, reason: String) -> Self {
        .init(
            code: "invalidResult", category: .invalidInput,
            message: "the result of '\(route)' must be \(expected): \(reason)")
    }

    /// `finish` on a coordinator that shows only its root and is not a stack item of its parent.
    public static func nothingToFinish(_ type: String) -> Self {
        .init(
            code: "nothingToFinish", category: .conflict,
            message: "\(type) shows only its root and was not pushed or presented: there is nothing to finish")
    }

    /// A route's guard refused (with the guard's own code and message).
    public static func guardRefused(code: String, message: String) -> Self {
        .init(code: code, category: .forbidden, message: message)
    }

    /// A route's guard redirected: the operation did not happen, the redirect did (a new version, showing
    /// `visiblePath`), and `route` is pending until its guard allows it (``redirect``).
    public static func redirected(_ route: PendingRoute, to visiblePath: [String]) -> Self {
        .init(
            code: "redirected", category: .conflict,
            message: "'\(route.route)' of \(route.ownerType) is guarded: redirected to "
                + "\(visiblePath.joined(separator: "/")); it opens once its guard allows it",
            choices: [], redirect: route)
    }

    /// Guards kept redirecting to guarded routes that redirect back (or too many times).
    public static func redirectLoop(_ chain: [String]) -> Self {
        .init(
            code: "redirectLoop", category: .conflict,
            message: "route guards redirect in a loop: \(chain.joined(separator: " → ")); nothing was changed",
            choices: chain)
    }

    /// A restore would bring back a route its guard does not allow now.
    public static func restoreGuarded(route: String, reason: String) -> Self {
        .init(
            code: "restoreGuarded", category: .forbidden,
            message: "the restored state shows '\(route)', which its guard does not allow now: \(reason)")
    }
}
