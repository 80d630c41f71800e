import SwitchyardServer

/// What went wrong talking to PostgreSQL.
enum PostgresError: Error, CustomStringConvertible {
    /// The connection is down or could not be made (server stopped, restarting, unreachable).
    case connection(String)
    /// The server refused a statement: its SQLSTATE and message.
    case server(state: String, message: String)

    /// SQLSTATE the compare-and-set raises when the session is not at the expected version
    /// (``PostgresStatements/advance``: division by zero).
    static let versionConflict = "22012"

    var description: String {
        switch self {
        case .connection(let message): "PostgreSQL connection: \(message)"
        case .server(let state, let message): "PostgreSQL: \(message) (SQLSTATE \(state))"
        }
    }

    /// What the server makes of it: a conflict with another node's write, data that cannot be read, or a store
    /// that is unavailable for now.
    var archiveError: ArchiveError {
        switch self {
        case .connection: return .unavailable(description)
        case .server(let state, let message):
            // 23505: a unique key taken (a keyed creation another node made first).
            if state == Self.versionConflict || state == "23505" { return .conflict(message) }
            // XX001/XX002: data or index corrupted.
            if state.hasPrefix("XX00") { return .unreadable(description) }
            return .unavailable(description)
        }
    }
}
