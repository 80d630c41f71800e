import MicroHTTP
import SwitchyardJSON
import SwitchyardSessions

/// The audit log of a session's committed changes, and the link to what it shows.
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

    /// `GET /api/sessions/{id}/link`: the app's deep link that shows what the session has on screen (reverse
    /// routing), or null when none does; with the version and visible path it was worked out for. Pages use it as
    /// the address of what they show.
    func visibleLink(_ id: String) throws -> HTTPResponse {
        let session = try sessions.session(id)
        let visible = try sessions.visibleLink(of: session)
        let path: [JSONValue] = visible.path.map { .string($0) }
        let link: JSONValue = visible.link.map { .string($0) } ?? .null
        let body: [String: JSONValue] = [
            "session": .string(id), "version": .number(Double(visible.version)), "path": .array(path), "link": link,
        ]
        return .json(200, JSONValue.object(body).serialized(), headers: noStore)
    }

    /// `GET /api/sessions/{id}/refusals`: the latest changes the session refused on this node (not versions: kept in
    /// memory, the latest few, see `RecentRefusals`).
    func refusals(_ id: String) throws -> HTTPResponse {
        let session = try sessions.session(id)
        let (version, refusals) = try sessions.refusals(of: session)
        return .json(
            200, RecentRefusals.document(session: id, version: version, refusals: refusals), headers: noStore)
    }

    /// `GET /api/sessions/{id}/versions/{version}/patch`: the JSON Patch that version made, from the one before.
    func patch(_ text: String, of id: String) throws -> HTTPResponse {
        let version = try Self.versionNumber(text)
        let session = try sessions.session(id)
        let patch = try sessions.patch(of: session, at: version)
        let body: [String: JSONValue] = [
            "session": .string(id), "version": .number(Double(version)), "patch": patch,
        ]
        return .json(200, JSONValue.object(body).serialized(), headers: noStore)
    }
}
