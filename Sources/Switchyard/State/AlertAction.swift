/// A button of an alert. Choosing it removes the alert and, if it names an event, sends that flow event from the
/// coordinator that presented the alert.
public struct AlertAction: Sendable, Hashable, Codable {
    /// Button roles.
    public enum Role: String, Sendable, Hashable, Codable {
        case `default`, cancel, destructive
    }

    /// The button title.
    public var title: String
    /// The button role (default `.default`).
    public var role: Role
    /// The flow event to send when chosen, if any.
    public var event: String?
    /// The event payload.
    public var payload: JSONValue?

    /// Creates an alert action.
    public init(_ title: String, role: Role = .default, event: String? = nil, payload: JSONValue? = nil) {
        self.title = title
        self.role = role
        self.event = event
        self.payload = payload
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case title, role, event, payload }

    /// The members of its JSON object.
    public static let memberNames = CodingKeys.allCases.map(\.stringValue)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        role = try container.decodeIfPresent(Role.self, forKey: .role) ?? .default
        event = try container.decodeIfPresent(String.self, forKey: .event)
        payload = try container.decodeIfPresent(JSONValue.self, forKey: .payload)
    }
}

/// An alert shown by a coordinator.
public struct Alert: Sendable, Hashable, Codable {
    /// The title.
    public var title: String
    /// The message, if any.
    public var message: String?
    /// The buttons; an alert with none gets a single "OK".
    public var actions: [AlertAction]

    /// Creates an alert.
    public init(title: String, message: String? = nil, actions: [AlertAction] = []) {
        self.title = title
        self.message = message
        self.actions = actions.isEmpty ? [AlertAction("OK", role: .cancel)] : actions
    }
}

extension AlertAction {
    /// Writes the action as it appears in state documents and steps.
    func write(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("title", title)
        writer.member("role", role.rawValue)
        writer.member("event", ifPresent: event)
        if let payload { writer.member("payload", payload) }
        writer.endObject()
    }
}
