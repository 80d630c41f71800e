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
        guard case .screen = self else { return false }
        return matcher.matches(Journey.Step(version: 0, time: nil, path: path))
    }

    /// Whether `step` of a journey reaches this step: shows the screen, or is the event.
    func isReached(by step: Journey.Step) -> Bool {
        matcher.matches(step)
    }

    /// This step, read once for many journeys.
    var matcher: Matcher { Matcher(self) }

    /// A step read once: the routes of a path prefix split, for the many journeys it is matched against.
    struct Matcher: Sendable {
        private let routes: [String]
        private let prefix: Bool
        private let event: String?

        init(_ step: FunnelStep) {
            switch step {
            case .screen(let screen):
                routes = screen.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
                prefix = routes.count > 1
                event = nil
            case .event(let name):
                (routes, prefix, event) = ([], false, name)
            }
        }

        /// Whether `step` shows the screen, or is the event.
        func matches(_ step: Journey.Step) -> Bool {
            if let event { return step.event == event }
            guard prefix else { return step.path.contains(routes[0]) }
            return step.path.count >= routes.count && zip(step.path, routes).allSatisfy { $0 == $1 }
        }
    }

    /// An event happens at a change of its own, after the step before it; a screen may show on the same change that
    /// reached the step before it (`login` then `favourites`: the login lands on the favourites).
    var isEvent: Bool {
        if case .event = self { return true }
        return false
    }
}
