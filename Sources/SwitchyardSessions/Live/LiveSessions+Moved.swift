/// Requests that read a session which may leave memory while they wait for it.
extension LiveSessions {
    /// Runs `body` on session `id` (`first`, or looked up with the idempotency `key`), and again on the session
    /// read back when it left memory while `body` waited for it (a reload of its app, an admin change, an eviction):
    /// `body` throws ``ChangeRefusal/sessionMoved`` then. Each try waits behind the requests already queued on the
    /// copy read back, so on a loaded machine a burst of reloads can end several copies in a row: the layer's
    /// ``RetryPolicy`` bounds the tries, then that refusal is the answer; a session deleted meanwhile is
    /// ``LookupFailure/unknown``. (Changes go through the ``ChangePipeline``, whose one loop does the same.)
    package func onLiveSession<Result>(
        _ id: String, key: String? = nil, first: Session? = nil, _ body: (Session) throws -> Result
    ) throws -> Result {
        var session = try first ?? self.session(id, key: key)
        for _ in 1..<retry.readBacks {
            do {
                return try body(session)
            } catch ChangeRefusal.sessionMoved {
                session = try readBack(session, key: key)
            }
        }
        return try body(session)
    }

    /// The session read back from the store after the copy `ended` left memory (its write failed, or it was taken
    /// out of memory): the copy is dropped first, even before the request that ended it has dropped it; `key` as
    /// for ``session(_:key:)``.
    func readBack(_ ended: Session, key: String?) throws(LookupFailure) -> Session {
        evict(ended)
        return try session(ended.id, key: key)
    }
}
