/// A guarded route kept after its guard redirected, entered once the guard allows it.
///
/// Its owner is named by the routes that lead to it from the root coordinator (not by node id): after a login the
/// tabs are new coordinators, and the route still opens in the one at the same place.
public struct PendingRoute: Sendable, Hashable {
    /// The route of each entry hosting a coordinator on the way from the root coordinator to the owner, e.g.
    /// `["authenticated", "settings"]`; empty when the owner is the root coordinator.
    public let ownerPath: [String]
    /// The owner's type name, e.g. `SettingsCoordinator`.
    public let ownerType: String
    /// The guarded route.
    public let route: String
    /// Its input, if any.
    public let input: JSONValue?
    /// How it was being entered: pushed, or presented as a `modal` or `fullScreen` (only `@Route` routes have
    /// guards).
    public let presentation: Presentation

    /// Creates a pending route (the engine makes them when a guard redirects).
    public init(
        ownerPath: [String], ownerType: String, route: String, input: JSONValue?, presentation: Presentation
    ) {
        self.ownerPath = ownerPath
        self.ownerType = ownerType
        self.route = route
        self.input = input
        self.presentation = presentation
    }
}

extension PendingRoute {
    /// Its JSON form in the state and restore documents:
    /// `{"owner": ["authenticated", "settings"], "type", "route", "input"?, "presentation"}`.
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "owner": .array(ownerPath.map { .string($0) }), "type": .string(ownerType), "route": .string(route),
        ]
        if let input { object["input"] = input }
        object["presentation"] = .string(presentation.rawValue)
        return .object(object)
    }

    /// Reads the JSON form; nil when it is not one.
    public init?(json: JSONValue) {
        guard case .array(let owner)? = json["owner"], case .string(let type)? = json["type"],
            case .string(let route)? = json["route"],
            let presentation = json["presentation"]?.stringValue.flatMap(Presentation.init(rawValue:))
        else { return nil }
        let path = owner.compactMap(\.stringValue)
        guard path.count == owner.count else { return nil }
        let input = json["input"]
        self.init(
            ownerPath: path, ownerType: type, route: route, input: input == .null ? nil : input,
            presentation: presentation)
    }
}
