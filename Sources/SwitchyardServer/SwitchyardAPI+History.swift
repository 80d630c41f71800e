import MicroHTTP

/// The audit log of a session's committed changes.
extension SwitchyardAPI {
    /// `GET /api/sessions/{id}/history[?after=V][&limit=N]`: committed changes, oldest first — the latest `limit`
    /// (default: the server's history limit), or the first `limit` after version `after` (to page through the
    /// whole log). With a store the log is read from it, so it holds every change its retention keeps; in memory,
    /// the latest within the history's budget.
    func history(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let after = try request.query["after"].map(Self.versionNumber)
        var limit = configuration.historyLimit
        if let text = request.query["limit"] {
            guard let number = Int(text), (1...1000).contains(number) else {
                throw Problem.malformed("'limit' must be a whole number from 1 to 1000")
            }
            limit = number
        }
        let session = try requireSession(id)
        let (version, inMemory) = try session.withState { state in
            if state.ended { throw Problem.sessionMoved(id) }
            return (state.engine.version, state.history.map { Array($0.entries(after: after, limit: limit)) })
        }
        guard let archive = configuration.archive else {
            return .json(
                200, SessionHistory.document(session: id, version: version, entries: inMemory ?? []), headers: noStore)
        }
        let stored: [StoredChange]
        do {
            stored = try archive.history(of: id, after: after, limit: limit)
        } catch {
            throw Problem.store(sessions.health.failed(error, during: "read history", session: id))
        }
        // Read after the version: a change stored meanwhile may show, none can be missing.
        let entries = stored.map(HistoryEntry.init).filter { $0.version <= version }
        return .json(200, SessionHistory.document(session: id, version: version, entries: entries), headers: noStore)
    }
}
