/// What a creation came to (its refusals are ``CreateFailure``s).
package enum CreateOutcome: Sendable {
    /// A new session, and the answer ``CreationRendering`` rendered of it.
    case created(session: String, SessionReply)
    /// A retry under a key that created a session still alive (here or on another node): the first answer.
    case replayed(session: String, SessionReply)

    /// The answer to give.
    package var reply: SessionReply {
        switch self {
        case .created(_, let reply), .replayed(_, let reply): reply
        }
    }
}
