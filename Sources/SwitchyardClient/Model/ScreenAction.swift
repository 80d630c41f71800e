import SwitchyardJSON

/// What a control does when tapped. ``Intent/init(_:fields:)`` turns it into the intent to send.
public enum ScreenAction: Decodable, Sendable, Equatable {
    /// Steps from the coordinator that owns the screen.
    case transition(coordinator: String, steps: [Step])
    /// A flow event from the screen's entry, with the ids of the fields whose values it carries.
    case event(from: String, name: String, payload: JSONValue?, fields: [String])
    /// A deep link.
    case deepLink(url: String)
    /// An action of a kind this client does not know: its JSON.
    case unknown(JSONValue)

    private enum CodingKeys: String, CodingKey {
        case type, coordinator, steps, from, name, payload, fields, url
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .type) {
        case "transition":
            self = .transition(
                coordinator: try container.decode(String.self, forKey: .coordinator),
                steps: try container.decode([Step].self, forKey: .steps))
        case "event":
            self = .event(
                from: try container.decode(String.self, forKey: .from),
                name: try container.decode(String.self, forKey: .name),
                payload: try container.decodeIfPresent(JSONValue.self, forKey: .payload),
                fields: try container.decodeIfPresent([String].self, forKey: .fields) ?? [])
        case "deepLink":
            self = .deepLink(url: try container.decode(String.self, forKey: .url))
        default:
            self = .unknown(try JSONValue(from: decoder))
        }
    }
}
