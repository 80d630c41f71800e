import MicroHTTP
import Switchyard
import SwitchyardSessions

/// Time travel: a session as it was at an earlier version, read back from the store's history.
extension SwitchyardAPI {
    /// `GET /api/sessions/{id}/versions/{version}`: the state document of that version, rendered now from its
    /// restore document (screens show the app data of that version). The current version is always there; earlier
    /// ones while the store's history keeps them.
    func version(_ text: String, of id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let version = try Self.versionNumber(text)
        let session = try sessions.session(id)
        let headers = noStore + [("ETag", "\"\(version)\"")]
        if let match = request.headers["if-none-match"], Self.noneMatch(match, version: version),
            version <= (try session.read { $0.version })
        {
            return HTTPResponse(status: 304, headers: headers)  // a version, once made, does not change
        }
        return .json(200, try sessions.document(of: session, at: version), headers: headers)
    }

    /// A version named in a path or query: a whole number, 0 or more, written plainly (no sign, no leading zero).
    /// One too large for an `Int` is later than any version, so it is taken as `Int.max`.
    static func versionNumber(_ text: String) throws -> Int {
        let digits = text.utf8
        guard !digits.isEmpty, digits.allSatisfy({ (48...57).contains($0) }), digits.first != 48 || digits.count == 1
        else {
            throw Problem.malformed("'\(text)' is not a version (a whole number, 0 or more)")
        }
        return Int(text) ?? Int.max
    }
}
