import SwitchyardSessions

/// What went wrong talking to PostgreSQL.
enum PostgresError: Error, CustomStringConvertible {
    /// The connection is down or could not be made (server stopped, restarting, unreachable).
    case connection(String)
    /// The server refused a statement: its SQLSTATE, message, and the constraint it broke (if any).
    case server(state: String, message: String, constraint: String? = nil)
    /// The server did not answer within the time a call may wait (hung, stopped, or cut off without a word); the
    /// connection is given up.
    case timeout(Duration)

    /// SQLSTATE the compare-and-set raises when the session is not at the expected version
    /// (``PostgresStatements/advance``: division by zero).
    static let versionConflict = "22012"
    /// SQLSTATE the compare-and-set raises when a change is a delta but the session's row does not know its
    /// document's checksum (``PostgresStatements/advance``: the logarithm of zero): the change is written again
    /// whole.
    static let staleDeltaBase = "2201E"

    var description: String {
        switch self {
        case .connection(let message): "PostgreSQL connection: \(message)"
        case .server(let state, let message, _): "PostgreSQL: \(message) (SQLSTATE \(state))"
        case .timeout(let limit): "the database did not answer within \(Self.seconds(limit))"
        }
    }

    /// What the server makes of it: a conflict with another node's write, data that cannot be read, or a store
    /// that is unavailable for now.
    var archiveError: ArchiveError {
        switch self {
        case .connection, .timeout: return .unavailable(description)
        case .server(let state, let message, let constraint):
            if state == Self.versionConflict { return .conflict(message) }
            // A unique key taken: a keyed creation (or, by a 1-in-2^128 chance, a session id) another node stored
            // first.
            if state == "23505", constraint == "switchyard_creations_pkey" || constraint == "switchyard_sessions_pkey" {
                return .conflict(message)
            }
            // XX001/XX002: data or index corrupted.
            if state.hasPrefix("XX00") { return .unreadable(description) }
            return .unavailable(description)
        }
    }

    /// Whether the server did not answer in time.
    var timedOut: Bool {
        if case .timeout = self { return true }
        return false
    }

    /// `5 s`, `0.5 s`.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        guard attoseconds != 0 else { return "\(seconds) s" }
        return "\(Double(seconds) + Double(attoseconds) / 1e18) s"
    }
}
