import SwitchyardJSON

/// A root, a tab or a stack item: a route with its input and what it shows (a screen or a coordinator).
public struct Entry: Decodable, Sendable, Equatable {
    /// What an entry shows.
    public indirect enum Content: Sendable, Equatable {
        /// A screen (nil when it rendered nothing).
        case screen(Screen?)
        /// A nested coordinator.
        case coordinator(CoordinatorNode)
    }

    /// The entry id (`i4`), stable while the entry lives.
    public let id: String
    /// The route's name.
    public let route: String
    /// The route's input, if it takes one.
    public let input: JSONValue?
    /// How a stack item is shown (nil for roots and tabs).
    public let presentation: Presentation?
    /// Whether the item came in animated.
    public let animated: Bool?
    /// Whether the user may swipe it away (sheets).
    public let dismissible: Bool?
    /// The tab bar item (tabs).
    public let tabItem: TabItem?
    /// What it shows.
    public let content: Content

    private enum CodingKeys: String, CodingKey {
        case id, route, input, presentation, animated, dismissible, tabItem, screen, coordinator
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        route = try container.decode(String.self, forKey: .route)
        input = try container.decodeIfPresent(JSONValue.self, forKey: .input)
        presentation = try container.decodeIfPresent(Presentation.self, forKey: .presentation)
        animated = try container.decodeIfPresent(Bool.self, forKey: .animated)
        dismissible = try container.decodeIfPresent(Bool.self, forKey: .dismissible)
        tabItem = try container.decodeIfPresent(TabItem.self, forKey: .tabItem)
        if let node = try container.decodeIfPresent(CoordinatorNode.self, forKey: .coordinator) {
            content = .coordinator(node)
        } else {
            content = .screen(try container.decodeIfPresent(Screen.self, forKey: .screen))
        }
    }

    /// The coordinator it shows, if it shows one.
    public var coordinator: CoordinatorNode? {
        if case .coordinator(let node) = content { return node }
        return nil
    }

    /// The screen it shows, if it shows one.
    public var screen: Screen? {
        if case .screen(let screen) = content { return screen }
        return nil
    }
}

extension Entry {
    /// A tab's item in the tab bar.
    public struct TabItem: Decodable, Sendable, Equatable {
        /// The title.
        public let title: String
        /// An SF Symbol name.
        public let icon: String
        /// The badge, if any.
        public let badge: String?
    }
}
