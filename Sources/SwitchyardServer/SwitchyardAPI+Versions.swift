import MicroHTTP
import Switchyard

/// Time travel: a session as it was at an earlier version, read back from the store's history.
extension SwitchyardAPI {
    /// `GET /api/sessions/{id}/versions/{version}`: the state document of that version, rendered now from its
    /// restore document (screens show the app data of that version). The current version is always there; earlier
    /// ones while the store's history keeps them (the memory store keeps none).
    func version(_ text: String, of id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let version = try Self.versionNumber(text)
        let session = try requireSession(id)
        let current = try session.withState { state throws -> (version: Int, document: [UInt8]) in
            if state.ended { throw Problem.sessionMoved(id) }
            return (state.engine.version, version == state.engine.version ? state.document(keep: true) : [])
        }
        let headers = noStore + [("ETag", "\"\(version)\"")]
        if version <= current.version, let match = request.headers["if-none-match"],
            Self.noneMatch(match, version: version)
        {
            return HTTPResponse(status: 304, headers: headers)  // a version, once made, does not change
        }
        if version == current.version { return .json(200, current.document, headers: headers) }
        guard version < current.version else {
            throw Problem.notFound(
                "session '\(id)' is at version \(current.version); version \(version) does not exist yet",
                code: "unknownVersion")
        }
        return .json(200, try pastDocument(of: session, at: version), headers: headers)
    }

    /// The state document of an earlier version, from the store.
    func pastDocument(of session: Session, at version: Int) throws -> [UInt8] {
        guard let state = try restoreDocument(of: session, at: version) else {
            throw Problem.notFound(notKept(session, version), code: "versionNotKept")
        }
        return try restoredEngine(of: session, from: state).stateDocument(session: session.id)
    }

    /// Why an earlier version cannot be read.
    func notKept(_ session: Session, _ version: Int) -> String {
        configuration.archive == nil
            ? "this server keeps sessions in memory, which keeps no earlier versions (run it with a store)"
            : "version \(version) of session '\(session.id)' is no longer kept (the store keeps each session's latest versions: see --history-retention and --max-history)"
    }

    /// The restore document of `version` from the store; nil when it is not kept.
    func restoreDocument(of session: Session, at version: Int) throws -> [UInt8]? {
        guard let archive = configuration.archive else { return nil }
        do {
            return try archive.state(of: session.id, at: version)
        } catch {
            throw Problem.store(sessions.health.failed(error, during: "read a version", session: session.id))
        }
    }

    /// An engine of the session's app built from a restore document (a stored one no longer fitting is 410).
    func restoredEngine(of session: Session, from state: [UInt8]) throws -> NavigationEngine {
        do {
            return try sessions.engine(of: session.id, app: session.app, from: state)
        } catch .incompatible(let reason) {
            throw Problem.sessionIncompatible(session.id, reason: reason)
        } catch {
            throw Problem.sessionIncompatible(session.id, reason: "\(error)")
        }
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
