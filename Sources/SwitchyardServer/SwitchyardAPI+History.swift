import MicroHTTP
import SwitchyardSessions

/// The audit log of a session's committed changes.
extension SwitchyardAPI {
    /// `GET /api/sessions/{id}/history[?after=V][&limit=N]`: committed changes, oldest first — the latest `limit`
    /// (default ``ServerConfiguration/historyLimit``), or the first `limit` after version `after` (to page through
    /// the whole log). The log is read from the store, so it holds every change its retention keeps.
    func history(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let after = try request.query["after"].map(Self.versionNumber)
        var limit = configuration.historyLimit
        if let text = request.query["limit"] {
            guard let number = Int(text), (1...1000).contains(number) else {
                throw Problem.malformed("'limit' must be a whole number from 1 to 1000")
            }
            limit = number
        }
        let session = try sessions.session(id)
        let (version, entries) = try sessions.history(of: session, after: after, limit: limit)
        return .json(200, HistoryEntry.document(session: id, version: version, entries: entries), headers: noStore)
    }
}
