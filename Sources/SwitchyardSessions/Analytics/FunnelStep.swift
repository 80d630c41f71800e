/// One step of a funnel: a screen reached, or a flow event sent.
///
/// Text names a step as `favourites` (a route name anywhere on the visible path), `authenticated/todos` (a prefix
/// of the visible path), `login` (a flow event, when no route has that name) or, to choose, `screen:NAME` and
/// `event:NAME` (``AnalyticsVocabulary/step(_:)`` reads it against the apps' catalogs).
public enum FunnelStep: Sendable, Hashable, CustomStringConvertible {
    /// A screen: a route name anywhere on the visible path, or a prefix of it with routes joined by `/`.
    case screen(String)
    /// A flow event the session accepted (`POST /api/sessions/{id}/events` with this `name`).
    case event(String)

    /// `favourites`, `authenticated/todos` or `event:login`.
    public var description: String {
        switch self {
        case .screen(let screen): screen
        case .event(let name): "event:\(name)"
        }
    }

    /// Whether a session whose visible path is `path` shows this screen (never, for an event).
    public func isShown(on path: [String]) -> Bool {
        guard case .screen(let screen) = self else { return false }
        let routes = screen.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard routes.count > 1 else { return path.contains(screen) }
        return path.count >= routes.count && zip(path, routes).allSatisfy { $0 == $1 }
    }

    /// Whether `step` of a journey reaches this step: shows the screen, or is the event.
    func isReached(by step: Journey.Step) -> Bool {
        switch self {
        case .screen: isShown(on: step.path)
        case .event(let name): step.event == name
        }
    }

    /// An event happens at a change of its own, after the step before it; a screen may show on the same change that
    /// reached the step before it (`login` then `favourites`: the login lands on the favourites).
    var isEvent: Bool {
        if case .event = self { return true }
        return false
    }
}
