import Foundation
import MicroHTTP
import Switchyard

/// Session endpoints.
extension SwitchyardAPI {
    /// The session named in a request (checked against a shared store: ``SessionStore/session(_:key:)``), or the
    /// problem.
    func requireSession(_ id: String, key: String? = nil) throws -> Session {
        do {
            return try sessions.session(id, key: key)
        } catch {
            throw problem(error, id)
        }
    }

    /// The answer to a session that could not be served.
    func problem(_ failure: SessionStore.LookupFailure, _ id: String) -> Problem {
        switch failure {
        case .unknown: Problem.notFound("no session '\(id)' (it may have expired)", code: "unknownSession")
        case .incompatible(let reason): Problem.sessionIncompatible(id, reason: reason)
        case .store(let incident): Problem.store(incident)
        case .full: tooManySessions(", so session '\(id)' cannot be read back from the store now")
        }
    }

    /// 503 `tooManySessions`: the server holds its maximum of live sessions (`why` says what that refused), with
    /// `Retry-After` the time until the first one expires.
    private func tooManySessions(_ why: String = "") -> Problem {
        let wait = sessions.secondsUntilRoom()
        return Problem(
            status: 503, code: "tooManySessions", title: "Too many sessions",
            detail: "the server holds its maximum of \(configuration.maxSessions) live sessions\(why); the next one "
                + "expires in about \(wait) s",
            headers: [("Retry-After", String(wait))])
    }

    func createSession(_ request: HTTPRequest) throws -> HTTPResponse {
        // A form can post cross-site without a preflight, and an empty form would create a session: only JSON (or
        // no body type at all, as `curl -X POST` sends) is accepted.
        if request.headers["content-type"] != nil { try requireJSON(request) }
        guard request.headers["idempotency-key"] != nil else { return try createSessionOnce(request) }
        // Look up, create and remember under one lock: concurrent retries of one key create one session.
        return try createdSessions.serializingCreations { try createSessionOnce(request) }
    }

    private func createSessionOnce(_ request: HTTPRequest) throws -> HTTPResponse {
        // Keys are scoped to the client's address: another client sending the same key gets its own session, never
        // this one's id.
        let key = request.headers["idempotency-key"]
        let scopedKey = key.map { CreationRateLimiter.clientKey(request.peer) + " " + $0 }
        let fingerprint = key == nil ? 0 : RequestFingerprint.of(request)  // only keyed requests are remembered
        if let key, let scopedKey, let stored = try createdSessions.entry(for: scopedKey) ?? storedCreation(scopedKey) {
            guard stored.fingerprint == fingerprint else { throw Problem.idempotencyKeyReused(key) }
            // Replayed while the session lives; once it has ended the key creates a new one.
            if (try? sessions.session(stored.session)) != nil {
                var response = stored.response
                response.headers.append(("Idempotent-Replayed", "true"))
                return response
            }
        }
        var appName: String?
        if !request.body.isEmpty {
            try requireJSON(request)
            appName = try decode(CreateSessionRequest.self, request.body).app
        }
        if case .refused(let wait) = creations.take(for: request.peer) {
            throw Problem(
                status: 429, code: "tooManyCreations", title: "Too many sessions created",
                detail: "this address created \(configuration.sessionCreationsPerMinute) sessions in the last minute, "
                    + "its limit; retry in \(wait) s or reuse a session",
                headers: [("Retry-After", String(wait))])
        }
        let session: Session
        let response: HTTPResponse
        do {
            session = try sessions.create(appName: appName)
            let (body, version) = session.withState { state in (state.document(), state.engine.version) }
            response = HTTPResponse.json(
                201, body,
                headers: noStore + [("Location", "/api/sessions/\(session.id)"), ("ETag", "\"\(version)\"")])
            let creation = scopedKey.map { key in
                StoredReply(
                    key: key, fingerprint: fingerprint, session: session.id, status: 201, headers: response.headers,
                    body: body)
            }
            try sessions.publish(session, creation: creation)
        } catch .full {
            throw tooManySessions()
        } catch .unknownApp(let name, let choices) {
            throw Problem(
                status: 400, code: "unknownApp", title: "Invalid request", detail: "no app named '\(name)'",
                choices: choices)
        } catch .engine(let error) {
            throw Problem(
                status: 500, code: "appFailed", title: "Internal error",
                detail: "the app's root coordinator could not start: \(error)")
        } catch .keyTaken {
            // Another node created a session under this key first: its answer is the one to replay.
            guard let key, let scopedKey, let stored = try storedCreation(scopedKey) else {
                throw Problem.store(
                    sessions.health.failed(.conflict("the key's creation was not found"), during: "create"))
            }
            guard stored.fingerprint == fingerprint else { throw Problem.idempotencyKeyReused(key) }
            createdSessions.store(stored, for: scopedKey)
            var replay = stored.response
            replay.headers.append(("Idempotent-Replayed", "true"))
            return replay
        } catch .store(let incident) {
            throw Problem.store(incident)
        }
        if let scopedKey {
            createdSessions.store(
                .init(response: response, session: session.id, fingerprint: fingerprint), for: scopedKey)
        }
        return response
    }

    /// A keyed creation remembered by the store (made before a restart), as the ledger keeps it.
    private func storedCreation(_ scopedKey: String) throws -> IdempotencyLedger.Entry? {
        guard let archive = configuration.archive else { return nil }
        do {
            guard let stored = try archive.creation(scopedKey) else { return nil }
            return .init(
                response: HTTPResponse(status: stored.status, headers: stored.headers, body: stored.body),
                session: stored.session, fingerprint: stored.fingerprint)
        } catch {
            throw Problem.store(sessions.health.failed(error, during: "read a creation"))
        }
    }

    func getSession(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let session = try requireSession(id)
        return try session.withState { state in
            if state.ended { throw Problem.sessionMoved(id) }
            let etag = "\"\(state.engine.version)\""
            if let match = request.headers["if-none-match"], Self.noneMatch(match, version: state.engine.version) {
                return HTTPResponse(status: 304, headers: noStore + [("ETag", etag)])
            }
            return .json(200, state.document(keep: true), headers: noStore + [("ETag", etag)])
        }
    }

    /// Whether an `If-None-Match` value names `version` (RFC 9110 §13.1.2): `*`, or a list of entity tags compared
    /// weakly (`W/"7"` matches `"7"`).
    static func noneMatch(_ header: String, version: Int) -> Bool {
        EntityTag.noneMatch(header, "\"\(version)\"")
    }

    func deleteSession(_ id: String) throws -> HTTPResponse {
        let removed: Bool
        do {
            removed = try sessions.remove(id)
        } catch {
            throw Problem.store(error)
        }
        guard removed else {
            throw Problem.notFound("no session '\(id)' (it may have expired)", code: "unknownSession")
        }
        return HTTPResponse(status: 204, headers: noStore)
    }

    func stream(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let session = try requireSession(id)
        let metrics = self.metrics
        // An `EventSource` reconnecting says the last version it saw: it gets the ones it missed, then live ones.
        let seen = request.headers["last-event-id"].flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
        guard let updates = StreamUpdates(query: request.query["updates"]) else {
            throw Problem.malformed("'updates' must be 'patch' (the default: changes as JSON Patches) or 'state'")
        }
        return .eventStream(headers: [("X-Session", session.id)]) { stream in
            metrics.addSubscribers(1)
            stream.onClose {
                session.unsubscribe(stream)
                metrics.addSubscribers(-1)
            }
            // What it missed is read and rendered before the session's lock is taken (changes go on meanwhile;
            // those after the versions rendered here come with the current state).
            let missed = seen.map { seen in
                self.sessions.documents(
                    of: session.id, app: session.app, after: seen - 1, before: session.catchingUp { $0.engine.version })
            }
            session.subscribe(Subscriber(stream: stream, updates: updates), after: seen, missed: missed ?? [])
            // Another node's change stored since the request was checked reached no stream here: look again.
            _ = try? self.sessions.checkCurrent(session)
        }
    }

    /// What the page may load and who may frame it: only its own files, scripts, styles and API (the page has no
    /// inline script or style); no framing (clickjacking); no referrer to other sites.
    static let pageSecurityHeaders = [
        (
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
                + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        ),
        ("Referrer-Policy", "same-origin"),
        ("X-Frame-Options", "DENY"),
    ]

    func staticResponse(_ request: HTTPRequest, parts: [String]) throws -> HTTPResponse {
        guard let staticFiles else { throw Problem.notFound("nothing at \(request.path)") }
        var target = request
        if parts.first == "s", parts.count == 2 {
            target.path = "/"
            target.rawPath = "/"
        }
        if var response = staticFiles.response(for: target) {
            response.headers += Self.pageSecurityHeaders
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

    /// 415 unless the request says its body is JSON.
    func requireJSON(_ request: HTTPRequest) throws {
        let header = request.headers["content-type"] ?? ""
        // The common case without Foundation's trimming, which cost ~5 % of a transition request's CPU.
        if header == "application/json" { return }
        let type = header.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard let type, type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
        else {
            throw Problem(
                status: 415, code: "unsupportedMediaType", title: "Unsupported media type",
                detail: "send the body as application/json", choices: ["application/json"])
        }
    }

    /// Decodes a JSON body; malformed JSON and wrong shapes are 400, a string over
    /// ``ServerConfiguration/maxFieldBytes`` is 422, engine refusals (e.g. unknown action) pass on.
    func decode<Value: Decodable>(_ type: Value.Type, _ body: [UInt8]) throws -> Value {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: body)
        } catch {
            throw Problem.malformed("the body is not valid JSON")
        }
        if Self.longestField(value) > configuration.maxFieldBytes { try checkFieldLengths(value, path: "") }
        if let plain = Value.self as? any PlainJSONDecodable.Type, let decoded = plain.init(plainJSON: value) as? Value
        {
            return decoded
        }
        do {
            return try JSONValueDecoder().decode(Value.self, from: value)
        } catch let error as NavigationError {
            throw error
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw Problem.malformed("the body is not valid JSON")
        } catch let error as DecodingError {
            throw Problem.malformed(Self.describe(error))
        } catch {
            throw Problem.malformed("the body is not valid JSON")
        }
    }

    /// The length in bytes of the longest string (member name or value) in `value`: the common check, which
    /// builds no paths (``checkFieldLengths(_:path:)`` names the field once one is too long).
    private static func longestField(_ value: JSONValue) -> Int {
        switch value {
        case .string(let text): text.utf8.count
        case .array(let items): items.reduce(0) { max($0, longestField($1)) }
        case .object(let members): members.reduce(0) { max($0, $1.key.utf8.count, longestField($1.value)) }
        default: 0
        }
    }

    /// 422 `fieldTooLong` for the first string (member name or value) longer than the limit.
    private func checkFieldLengths(_ value: JSONValue, path: String) throws {
        let limit = configuration.maxFieldBytes
        func tooLong(_ where: String, _ bytes: Int) -> Problem {
            var problem = Problem(
                status: 422, code: "fieldTooLong", title: "Invalid input",
                detail: "\(`where`) is \(bytes) bytes long; the limit is \(limit)")
            problem.extra = [("limit", Array(String(limit).utf8))]
            return problem
        }
        switch value {
        case .string(let text) where text.utf8.count > limit:
            throw tooLong(path.isEmpty ? "the body" : "'\(path)'", text.utf8.count)
        case .array(let items):
            for (index, item) in items.enumerated() { try checkFieldLengths(item, path: path + "[\(index)]") }
        case .object(let members):
            for (name, member) in members {
                guard name.utf8.count <= limit else { throw tooLong("a member name", name.utf8.count) }
                try checkFieldLengths(member, path: path.isEmpty ? name : path + "." + name)
            }
        default:
            return
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.isEmpty
                ? "the body" : "'" + context.codingPath.map(\.stringValue).joined(separator: ".") + "'"
        }
        switch error {
        case .typeMismatch(let type, let context): return "\(path(context)) must be \(jsonName(type))"
        case .valueNotFound(let type, let context): return "\(path(context)) must be \(jsonName(type)), not null"
        case .keyNotFound(let key, let context):
            return "missing member '\(key.stringValue)' in \(context.codingPath.isEmpty ? "the body" : path(context))"
        case .dataCorrupted(let context): return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "the body does not have the expected shape"
        }
    }

    private static func jsonName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Double.Type: return "a number"
        case is Bool.Type: return "a boolean"
        case is [Any].Type: return "an array"
        default: return "an object"
        }
    }
}
