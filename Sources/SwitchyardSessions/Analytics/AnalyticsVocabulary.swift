import Switchyard
import SwitchyardJSON

/// The route and flow-event names of the app versions an analysis covers (from their catalogs): what steps are
/// read against, and the choices a refusal lists.
public struct AnalyticsVocabulary: Sendable {
    /// Every route name, sorted.
    public let routes: [String]
    /// Every flow event name, sorted.
    public let events: [String]

    /// The names of `apps`.
    public init(apps: [NavigationApp]) {
        var routes: Set<String> = []
        var events: Set<String> = []
        for app in apps {
            guard case .array(let coordinators)? = app.catalog()["coordinators"] else { continue }
            for coordinator in coordinators {
                for route in coordinator["routes"]?.arrayValue ?? [] {
                    if case .string(let name)? = route["name"] { routes.insert(name) }
                }
                for event in coordinator["events"]?.arrayValue ?? [] {
                    if case .string(let name)? = event["name"] { events.insert(name) }
                }
            }
        }
        self.routes = routes.sorted()
        self.events = events.sorted()
    }

    /// What a step may be: every route, then every event as `event:NAME`.
    public var choices: [String] { routes + events.map { "event:\($0)" } }

    /// Reads `text`: `screen:NAME` and `event:NAME` say which; a name with `/` is a path prefix of routes; a route
    /// name is a screen; an event name (of no route) an event.
    package func step(_ text: String) throws(AnalyticsRefusal) -> FunnelStep {
        let name = text.trimmingSpaces
        guard !name.isEmpty else { throw .invalid("a step is empty: name a route or a flow event") }
        if name.hasPrefix("event:") {
            let event = String(name.dropFirst(6))
            guard events.contains(event) else { throw .unknownStep(name, choices: choices) }
            return .event(event)
        }
        let screen = name.hasPrefix("screen:") ? String(name.dropFirst(7)) : name
        let parts = screen.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.allSatisfy(routes.contains) { return .screen(screen) }
        if !name.hasPrefix("screen:"), events.contains(name) { return .event(name) }
        throw .unknownStep(name, choices: choices)
    }

    /// Reads a comma-separated list of steps (empty: none).
    package func steps(_ list: String) throws(AnalyticsRefusal) -> [FunnelStep] {
        guard !list.trimmingSpaces.isEmpty else { return [] }
        var steps: [FunnelStep] = []
        for part in list.split(separator: ",", omittingEmptySubsequences: false) {
            steps.append(try step(String(part)))
        }
        return steps
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
