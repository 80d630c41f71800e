import Switchyard

/// A todo of the demo.
public struct Todo: Sendable, Hashable, Codable {
    /// A URL-safe id, e.g. `buy-milk`.
    public var id: String
    /// What to do.
    public var name: String
    /// Whether it is a favourite (shown on the home tab).
    public var favourite: Bool
}

extension Todo: EncodesLike {
    /// Every stored property, compared as `Codable` writes it.
    public func encodesLike(_ other: Todo) -> Bool {
        id.encodesLike(other.id) && name.encodesLike(other.name) && favourite == other.favourite
    }
}
