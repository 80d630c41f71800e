/// What the change pipeline returns: what happened, and the answer the front end rendered of it (fixed before the
/// store write: a retry under the request's idempotency key gets the same bytes).
package struct ChangeAnswer: Sendable {
    /// What happened to the session.
    package let ending: ChangeEnding
    /// The answer, as ``ChangeRendering`` rendered it.
    package let reply: SessionReply
}

/// What a change did to its session, as a value that outlives the session's lock (``ChangeOutcome`` is what the
/// renderer reads under it).
package enum ChangeEnding: Sendable {
    /// Applied, and stored as `version` (and the versions before it that the change made).
    case committed(version: Int)
    /// Accepted, but made no version: the session is still at `version`.
    case unchanged(version: Int)
    /// A guard sent the change elsewhere, and that was stored as `version`.
    case redirected(version: Int)
    /// Nothing was applied.
    case refused(ChangeRefusal)
    /// A retry of a request already answered under its idempotency key: answered as it was, nothing applied again.
    case replayed
}

extension ChangeOutcome {
    /// What the outcome did to the session.
    var ending: ChangeEnding {
        switch self {
        case .committed(_, let snapshot): .committed(version: snapshot.version)
        case .unchanged(_, let snapshot): .unchanged(version: snapshot.version)
        case .redirected(_, let snapshot): .redirected(version: snapshot.version)
        case .refused(let refusal): .refused(refusal)
        case .replayed, .rebuilt: .replayed
        }
    }
}
