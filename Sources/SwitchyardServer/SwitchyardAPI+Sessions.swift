import Foundation
import MicroHTTP
import Switchyard
import SwitchyardSessions

/// Session endpoints.
extension SwitchyardAPI {
    func createSession(_ request: HTTPRequest) throws -> HTTPResponse {
        // A form can post cross-site without a preflight, and an empty form would create a session: only JSON (or
        // no body type at all, as `curl -X POST` sends) is accepted.
        if request.headers["content-type"] != nil { try requireJSON(request) }
        // Keys are scoped to the client's address: another client sending the same key gets its own session, never
        // this one's id.
        let key = request.headers["idempotency-key"].map { key in
            CreationKey(
                given: key, scoped: ClientRateLimiter.clientKey(request.peer) + " " + key,
                fingerprint: RequestFingerprint.of(request))
        }
        return try newSessions.serializing(key) {
            if let key, let replay = try newSessions.replay(key) { return HTTPResponse(replay) }
            var app: String?
            if !request.body.isEmpty {
                try requireJSON(request)
                app = try decode(CreateSessionRequest.self, request.body).app
            }
            if case .refused(let wait) = creations.take(for: request.peer) {
                throw Problem.rateLimited(
                    code: "tooManyCreations", title: "Too many sessions created",
                    "this address created \(configuration.sessionCreationsPerMinute) sessions in the last minute, "
                        + "its limit (reuse a session)", retryAfter: wait)
            }
            return HTTPResponse(try newSessions.create(CreateRequest(app: app, key: key)).reply)
        }
    }

    func getSession(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        try sessions.onLiveSession(id) { session in
            try session.read { snapshot in
                let etag = "\"\(snapshot.version)\""
                if let match = request.headers["if-none-match"], Self.noneMatch(match, version: snapshot.version) {
                    return HTTPResponse(status: 304, headers: noStore + [("ETag", etag)])
                }
                return .json(200, snapshot.document(keep: true), headers: noStore + [("ETag", etag)])
            }
        }
    }

    /// Whether an `If-None-Match` value names `version` (RFC 9110 §13.1.2): `*`, or a list of entity tags compared
    /// weakly (`W/"7"` matches `"7"`).
    static func noneMatch(_ header: String, version: Int) -> Bool {
        EntityTag.noneMatch(header, "\"\(version)\"")
    }

    func deleteSession(_ id: String) throws -> HTTPResponse {
        guard try sessions.remove(id) else { throw LookupFailure.unknown }
        return HTTPResponse(status: 204, headers: noStore)
    }

    func stream(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let session = try sessions.session(id)
        let counters = sessions.counters
        // An `EventSource` reconnecting says the last version it saw: it gets the ones it missed, then live ones.
        let seen = request.headers["last-event-id"].flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
        guard let updates = StreamUpdates(query: request.query["updates"]) else {
            throw Problem.malformed("'updates' must be 'patch' (the default: changes as JSON Patches) or 'state'")
        }
        return .eventStream(headers: [("X-Session", session.id)]) { stream in
            let subscriber = EventStreamSubscriber(stream: stream, updates: updates)
            counters.addSubscribers(1)
            stream.onClose {
                session.unsubscribe(subscriber)
                counters.addSubscribers(-1)
            }
            // What it missed is read and rendered before the session's lock is taken (changes go on meanwhile;
            // those after the versions rendered here come with the current state).
            let missed = seen.map { seen in
                self.sessions.documents(of: session.id, app: session.app, after: seen - 1, before: session.version)
            }
            session.subscribe(subscriber, after: seen, missed: missed ?? [])
            // Another node's change stored since the request was checked reached no stream here: look again.
            _ = try? self.sessions.checkCurrent(session)
        }
    }

    func staticResponse(_ request: HTTPRequest, parts: [String]) throws -> HTTPResponse {
        guard let staticFiles else { throw Problem.notFound("nothing at \(request.path)") }
        var target = request
        // The page's own addresses: `/s/{id}` and the paths under it (`/s/{id}/authenticated/todos/list`).
        if parts.first == "s", parts.count >= 2 {
            target.path = "/"
            target.rawPath = "/"
        }
        if var response = staticFiles.response(for: target) {
            response.headers += SecurityHeaders.page
            return response
        }
        if request.method != "GET", request.method != "HEAD" {
            throw Problem(
                status: 405, code: "methodNotAllowed", title: "Method not allowed",
                detail: "static files answer GET and HEAD", choices: ["GET", "HEAD"],
                headers: [("Allow", "GET, HEAD")])
        }
        throw Problem.notFound("nothing at \(request.path)")
    }
}
