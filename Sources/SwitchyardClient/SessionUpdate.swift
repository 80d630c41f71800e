/// What a follower reports: a new state, or a change of its connection.
public enum SessionUpdate: Sendable, Equatable {
    /// The session's state now.
    case state(SessionDocument)
    /// The connection's state now.
    case connection(ConnectionState)
}
