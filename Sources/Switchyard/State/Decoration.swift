/// How a coordinator decorates what it renders (Jumper's `configure(controller:)`, Stinsen's `customize`).
///
/// Set in ``Coordinatable/customize(_:)``; every member is optional and renderers ignore what they don't know.
public struct Decoration: Sendable, Hashable {
    /// Overrides the navigation-bar title of this coordinator's screens.
    public var title: String?
    /// Hides the navigation bar.
    public var navigationBarHidden: Bool?
    /// A CSS colour for buttons and the selected tab.
    public var tint: String?
    /// Tab-bar style name (e.g. `standard`, `compact`).
    public var tabBarStyle: String?
    /// Badges by tab route name, overriding the tab items' own.
    public var badges: [String: String]

    /// Creates an empty decoration.
    public init(
        title: String? = nil, navigationBarHidden: Bool? = nil, tint: String? = nil, tabBarStyle: String? = nil,
        badges: [String: String] = [:]
    ) {
        self.title = title
        self.navigationBarHidden = navigationBarHidden
        self.tint = tint
        self.tabBarStyle = tabBarStyle
        self.badges = badges
    }

    /// True when nothing is set.
    public var isEmpty: Bool {
        title == nil && navigationBarHidden == nil && tint == nil && tabBarStyle == nil && badges.isEmpty
    }
}
