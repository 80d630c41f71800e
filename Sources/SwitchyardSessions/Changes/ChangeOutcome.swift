import Switchyard

/// What the change pipeline did with a request: the front end renders each case as its answer.
package enum ChangeOutcome {
    /// The change was applied and made at least one version; `result` says what it did (the coordinator a
    /// transition ended on, the handler of an event, …).
    case committed(result: [String: JSONValue], SessionSnapshot)
    /// The change was accepted but made no version (an event handler that only changed app data, a redirect to
    /// where the session already was).
    case unchanged(result: [String: JSONValue], SessionSnapshot)
    /// A route guard sent the change elsewhere, and that committed: the session is now where the guard sent it.
    case redirected(NavigationError, SessionSnapshot)
    /// Nothing was applied, for this reason.
    case refused(ChangeRefusal)
    /// A retry of a request already answered under its idempotency key: the first answer, as rendered then.
    case replayed(SessionReply)
    /// A retry of a request already answered under its idempotency key, whose answer is kept only as what rebuilds
    /// it: the outcome it had (``committed(result:_:)`` or ``redirected(_:_:)``), on the session as the answer's
    /// version left it, to answer as it was answered.
    indirect case rebuilt(ChangeOutcome)
}
