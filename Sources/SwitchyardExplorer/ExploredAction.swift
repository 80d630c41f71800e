import Switchyard

/// One thing a client can do in an explored state, as the request the server takes for it.
public struct ExploredAction: Sendable, Hashable {
    /// Who can do it: a person on the page (a control, an alert's button, a gesture, the tab bar), or only a client
    /// of the API (a route entered by name, a declared event sent, a deep link from outside).
    public enum Origin: String, Sendable, Hashable, CaseIterable {
        case screen, alert, gesture, tab, route, event, deepLink

        /// Whether a person using the app can do it on screen: what traps are judged by.
        public var isOnScreen: Bool { self != .route && self != .event && self != .deepLink }
    }

    /// The request: a chain of steps from a coordinator, a flow event from the visible screen, or a deep link.
    ///
    /// Coordinators are named by type (the server takes the one of that type nearest the visible screen) and
    /// events come from the visible screen, so that a request means the same in every state of one shape,
    /// whatever ids the way there gave.
    public enum Request: Sendable, Hashable {
        case transition(coordinator: String?, steps: [Step])
        case event(name: String, payload: JSONValue, fields: [String: String])
        case deepLink(String)
    }

    public let origin: Origin
    /// What it is, for people: `tap 'New todo'`, `push TodosCoordinator.todo "sample"`, `back`, `open app://home`.
    public let label: String
    public let request: Request

    /// An action.
    public init(_ origin: Origin, _ label: String, _ request: Request) {
        self.origin = origin
        self.label = label
        self.request = request
    }

    /// The session's endpoint it is sent to: `transitions`, `events` or `deeplinks`
    /// (`POST /api/sessions/{id}/ENDPOINT`).
    public var endpoint: String {
        switch request {
        case .transition: "transitions"
        case .event: "events"
        case .deepLink: "deeplinks"
        }
    }

    /// The request's body, as the API takes it.
    public var body: JSONValue {
        switch request {
        case .transition(let coordinator, let steps):
            var body: [String: JSONValue] = ["steps": (try? JSONValue(encoding: steps)) ?? []]
            if let coordinator { body["coordinator"] = .string(coordinator) }
            return .object(body)
        case .event(let name, let payload, let fields):
            var body: [String: JSONValue] = ["name": .string(name)]
            if payload != .null { body["payload"] = payload }
            if !fields.isEmpty { body["fields"] = .object(fields.mapValues { .string($0) }) }
            return .object(body)
        case .deepLink(let url):
            return ["url": .string(url)]
        }
    }

    /// Runs it on `engine`, as the session layer does for the same request.
    package func run(on engine: NavigationEngine) throws {
        switch request {
        case .transition(let coordinator, let steps): try engine.perform(steps, from: coordinator)
        case .event(let name, let payload, let fields):
            guard let from = engine.visibleItem else {
                throw NavigationError(code: "malformed", category: .invalidInput, message: "nothing is visible")
            }
            _ = try engine.send(FlowEvent(name: name, payload: payload, fields: fields), from: from.description)
        case .deepLink(let url): _ = try engine.open(url)
        }
    }
}
