/// The three kinds of coordinator.
public enum CoordinatorKind: String, Sendable, Hashable, Codable {
    /// Switches between `@Root` routes (a window's root).
    case root
    /// A stack of pushed and presented items over a root.
    case navigation
    /// Tabs, each with its own content, and a selected tab.
    case tab
}
