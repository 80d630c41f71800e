/// How a tab looks in the tab bar. Tab items are made when the state is read, so badges stay current.
public struct TabItem: Sendable, Hashable, Codable {
    /// The tab title.
    public var title: String
    /// An icon name (SF-Symbol-like, e.g. `house`).
    public var icon: String
    /// A short badge, or nil for none.
    public var badge: String?

    /// Creates a tab item.
    public init(title: String, icon: String, badge: String? = nil) {
        self.title = title
        self.icon = icon
        self.badge = badge
    }
}
