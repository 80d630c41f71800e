/// One element of a screen: the small vocabulary every renderer understands.
public enum ScreenElement: Sendable, Hashable {
    /// Text in a style: `title`, `headline`, `body` or `caption`.
    case text(String, style: TextStyle = .body)
    /// An icon by SF-Symbol-like name (e.g. `star.fill`), optionally tinted with a CSS colour.
    case image(systemName: String, color: String? = nil)
    /// A single-line text field whose value can be sent with a flow event (see ``ScreenAction/event(_:payload:fields:)``).
    case textField(id: String, label: String, placeholder: String = "", value: String = "", secure: Bool = false)
    /// A switch; tapping it performs `action` with the new value in the field named `id`.
    case toggle(id: String, title: String, isOn: Bool, action: ScreenAction)
    /// A button.
    case button(String, role: ButtonRole = .primary, disabled: Bool = false, action: ScreenAction)
    /// A list of tappable rows.
    case list([ListRow])

    /// Text styles.
    public enum TextStyle: String, Sendable, Hashable {
        case title, headline, body, caption
    }

    /// Button roles, for styling.
    public enum ButtonRole: String, Sendable, Hashable {
        case primary, secondary, destructive
    }
}

/// A row of a list element.
public struct ListRow: Sendable, Hashable {
    /// Identifies the row within its list.
    public var id: String
    /// The main text.
    public var title: String
    /// Secondary text.
    public var subtitle: String?
    /// An icon name.
    public var icon: String?
    /// A short badge (e.g. a count).
    public var badge: String?
    /// What tapping the row does, if anything.
    public var action: ScreenAction?

    /// Creates a row.
    public init(
        id: String, title: String, subtitle: String? = nil, icon: String? = nil, badge: String? = nil,
        action: ScreenAction? = nil
    ) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.icon = icon
        self.badge = badge
        self.action = action
    }
}
