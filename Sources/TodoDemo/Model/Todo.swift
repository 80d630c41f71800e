/// A todo of the demo.
public struct Todo: Sendable, Hashable, Codable {
    /// A URL-safe id, e.g. `buy-milk`.
    public var id: String
    /// What to do.
    public var name: String
    /// Whether it is a favourite (shown on the home tab).
    public var favourite: Bool
}
