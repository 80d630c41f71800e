/// A coordinator as a change's record names it: its node id and its type (the node may be gone since).
public struct CoordinatorReference: Sendable, Hashable {
    /// The coordinator's node id.
    public let id: NodeID
    /// Its type's name, as the state document writes it.
    public let type: String

    /// Names a coordinator.
    public init(id: NodeID, type: String) {
        self.id = id
        self.type = type
    }
}
