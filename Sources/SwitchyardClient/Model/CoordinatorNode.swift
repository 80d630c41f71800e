import SwitchyardJSON

/// A coordinator in the state tree: its root, stack, tabs, alert and decoration.
public struct CoordinatorNode: Decodable, Sendable, Equatable {
    /// What a coordinator holds.
    public enum Kind: String, LenientEnum {
        /// One root route and presentations over it.
        case root
        /// A root and a stack of pushes and presentations.
        case navigation
        /// Tabs, one selected, and presentations over them.
        case tab
        /// A kind this client does not know.
        case unknown
    }

    /// The node id (`n5`), stable while the coordinator lives.
    public let id: String
    /// The coordinator's type name (`TodosCoordinator`).
    public let type: String
    /// What it holds.
    public let kind: Kind
    /// The current root (root and navigation kinds).
    public let root: Entry?
    /// The items above the root, bottom first: pushes and presentations.
    public let stack: [Entry]
    /// The tabs (tab kind).
    public let tabs: [Entry]
    /// The selected tab's route name.
    public let selectedTab: String?
    /// The selected tab's entry id (tabs may repeat a route).
    public let selectedTabId: String?
    /// The alert shown, if any.
    public let alert: Alert?
    /// What the coordinator's `customize` set.
    public let decoration: Decoration?

    private enum CodingKeys: String, CodingKey {
        case id, type, kind, root, stack, tabs, selectedTab, selectedTabId, alert, decoration
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        type = try container.decode(String.self, forKey: .type)
        kind = try container.decode(Kind.self, forKey: .kind)
        root = try container.decodeIfPresent(Entry.self, forKey: .root)
        stack = try container.decodeIfPresent([Entry].self, forKey: .stack) ?? []
        tabs = try container.decodeIfPresent([Entry].self, forKey: .tabs) ?? []
        selectedTab = try container.decodeIfPresent(String.self, forKey: .selectedTab)
        selectedTabId = try container.decodeIfPresent(String.self, forKey: .selectedTabId)
        alert = try container.decodeIfPresent(Alert.self, forKey: .alert)
        decoration = try container.decodeIfPresent(Decoration.self, forKey: .decoration)
    }
}

extension CoordinatorNode {
    /// What a coordinator's `customize` set for its bars; every member optional.
    public struct Decoration: Decodable, Sendable, Equatable {
        /// The navigation title.
        public let title: String?
        /// Whether the navigation bar is hidden.
        public let navigationBarHidden: Bool?
        /// The tint colour (`#0a84ff`).
        public let tint: String?
        /// The tab bar's style.
        public let tabBarStyle: String?
        /// Badges by tab route.
        public let badges: [String: String]?
    }

    /// An alert over a coordinator.
    public struct Alert: Decodable, Sendable, Equatable {
        /// One of its buttons.
        public struct Action: Decodable, Sendable, Equatable {
            /// A button's role.
            public enum Role: String, LenientEnum {
                /// An ordinary choice.
                case `default`
                /// Cancels.
                case cancel
                /// Destroys something.
                case destructive
                /// A role this client does not know.
                case unknown
            }

            /// The button's title.
            public let title: String
            /// Its role.
            public let role: Role
            /// The flow event it sends, if any.
            public let event: String?
            /// That event's payload.
            public let payload: JSONValue?
        }

        /// The title.
        public let title: String
        /// The message under it.
        public let message: String?
        /// The buttons, in order: answer with ``Step/respondToAlert(choice:)`` and the index.
        public let actions: [Action]
    }
}
