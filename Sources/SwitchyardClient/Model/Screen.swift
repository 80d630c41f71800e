import SwitchyardJSON

/// A rendered screen: its title, background and elements.
public struct Screen: Decodable, Sendable, Equatable {
    /// The title.
    public let title: String
    /// The background colour (`#ffffff`).
    public let background: String?
    /// The elements, top to bottom.
    public let content: [ScreenElement]
}

/// One element of a screen.
public enum ScreenElement: Decodable, Sendable, Equatable {
    /// How a text is set.
    public enum TextStyle: String, LenientEnum {
        /// The screen's big title.
        case title
        /// A heading.
        case headline
        /// Running text.
        case body
        /// Small print.
        case caption
        /// A style this client does not know.
        case unknown
    }

    /// A button's role.
    public enum ButtonRole: String, LenientEnum {
        /// The screen's main action.
        case primary
        /// Another action.
        case secondary
        /// An action that destroys something.
        case destructive
        /// A role this client does not know.
        case unknown
    }

    /// Text.
    case text(String, style: TextStyle)
    /// An SF Symbol, with a colour.
    case image(systemName: String, color: String?)
    /// A text field: its `id` names it in an event's `fields`.
    case textField(id: String, label: String, placeholder: String, value: String, secure: Bool)
    /// A switch: tapping it runs `action` with the new state as its field value.
    case toggle(id: String, title: String, isOn: Bool, action: ScreenAction)
    /// A button.
    case button(title: String, role: ButtonRole, disabled: Bool, action: ScreenAction)
    /// A list of rows.
    case list([ListRow])
    /// An element of a kind this client does not know: its JSON.
    case unknown(JSONValue)

    private enum CodingKeys: String, CodingKey {
        case type, text, style, systemName, color, id, label, placeholder, value, secure, title, isOn, action, role
        case disabled, rows
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .type) {
        case "text":
            self = .text(
                try container.decode(String.self, forKey: .text),
                style: try container.decode(TextStyle.self, forKey: .style))
        case "image":
            self = .image(
                systemName: try container.decode(String.self, forKey: .systemName),
                color: try container.decodeIfPresent(String.self, forKey: .color))
        case "textField":
            self = .textField(
                id: try container.decode(String.self, forKey: .id),
                label: try container.decode(String.self, forKey: .label),
                placeholder: try container.decode(String.self, forKey: .placeholder),
                value: try container.decode(String.self, forKey: .value),
                secure: try container.decode(Bool.self, forKey: .secure))
        case "toggle":
            self = .toggle(
                id: try container.decode(String.self, forKey: .id),
                title: try container.decode(String.self, forKey: .title),
                isOn: try container.decode(Bool.self, forKey: .isOn),
                action: try container.decode(ScreenAction.self, forKey: .action))
        case "button":
            self = .button(
                title: try container.decode(String.self, forKey: .title),
                role: try container.decode(ButtonRole.self, forKey: .role),
                disabled: try container.decode(Bool.self, forKey: .disabled),
                action: try container.decode(ScreenAction.self, forKey: .action))
        case "list":
            self = .list(try container.decode([ListRow].self, forKey: .rows))
        default:
            self = .unknown(try JSONValue(from: decoder))
        }
    }
}

/// A row of a list.
public struct ListRow: Decodable, Sendable, Equatable {
    /// The row's id.
    public let id: String
    /// Its title.
    public let title: String
    /// The line under it.
    public let subtitle: String?
    /// An SF Symbol name.
    public let icon: String?
    /// A badge.
    public let badge: String?
    /// What tapping it does.
    public let action: ScreenAction?
}
