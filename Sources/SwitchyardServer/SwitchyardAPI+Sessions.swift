import Foundation
import MicroHTTP
import Switchyard

/// Session endpoints.
extension SwitchyardAPI {
    func requireSession(_ id: String) throws -> Session {
        guard let session = sessions.session(id) else {
            throw Problem.notFound("no session '\(id)' (it may have expired)", code: "unknownSession")
        }
        return session
    }

    func createSession(_ request: HTTPRequest) throws -> HTTPResponse {
        guard request.headers["idempotency-key"] != nil else { return try createSessionOnce(request) }
        // Look up, create and remember under one lock: concurrent retries of one key create one session.
        return try createdSessions.serializingCreations { try createSessionOnce(request) }
    }

    private func createSessionOnce(_ request: HTTPRequest) throws -> HTTPResponse {
        let key = request.headers["idempotency-key"]
        let fingerprint = key == nil ? 0 : RequestFingerprint.of(request)  // only keyed requests are remembered
        if let key, let stored = createdSessions.entry(for: key) {
            guard stored.fingerprint == fingerprint else { throw Problem.idempotencyKeyReused(key) }
            // Replayed while the session lives; once it has ended the key creates a new one.
            if sessions.session(stored.session) != nil {
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
        let session: Session
        do {
            session = try sessions.create(appName: appName)
        } catch .full {
            throw Problem(
                status: 503, code: "tooManySessions", title: "Too many sessions",
                detail: "the server holds its maximum of \(configuration.maxSessions) live sessions; retry later",
                headers: [("Retry-After", "30")])
        } catch .unknownApp(let name, let choices) {
            throw Problem(
                status: 400, code: "unknownApp", title: "Invalid request", detail: "no app named '\(name)'",
                choices: choices)
        } catch .engine(let error) {
            throw Problem(
                status: 500, code: "appFailed", title: "Internal error",
                detail: "the app's root coordinator could not start: \(error)")
        }
        let (body, version) = session.withLock { engine in (session.document(), engine.version) }
        let response = HTTPResponse.json(
            201, body,
            headers: noStore + [("Location", "/api/sessions/\(session.id)"), ("ETag", "\"\(version)\"")])
        if let key {
            createdSessions.store(.init(response: response, session: session.id, fingerprint: fingerprint), for: key)
        }
        return response
    }

    func getSession(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let session = try requireSession(id)
        return session.withLock { engine in
            let etag = "\"\(engine.version)\""
            if let match = request.headers["if-none-match"], match == etag || match == "*" {
                return HTTPResponse(status: 304, headers: noStore + [("ETag", etag)])
            }
            return .json(200, session.document(keep: true), headers: noStore + [("ETag", etag)])
        }
    }

    func deleteSession(_ id: String) throws -> HTTPResponse {
        guard sessions.remove(id) else {
            throw Problem.notFound("no session '\(id)' (it may have expired)", code: "unknownSession")
        }
        return HTTPResponse(status: 204, headers: noStore)
    }

    func history(_ id: String) throws -> HTTPResponse {
        let session = try requireSession(id)
        return session.withLock { _ in .json(200, session.historyDocument(), headers: noStore) }
    }

    func stream(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let session = try requireSession(id)
        let metrics = self.metrics
        return .eventStream(headers: [("X-Session", session.id)]) { stream in
            metrics.addSubscribers(1)
            stream.onClose {
                session.unsubscribe(stream)
                metrics.addSubscribers(-1)
            }
            session.subscribe(stream)
        }
    }

    func staticResponse(_ request: HTTPRequest, parts: [String]) throws -> HTTPResponse {
        guard let staticFiles else { throw Problem.notFound("nothing at \(request.path)") }
        var target = request
        if parts.first == "s", parts.count == 2 {
            target.path = "/"
            target.rawPath = "/"
        }
        if let response = staticFiles.response(for: target) { return response }
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

    /// Decodes a JSON body; malformed JSON and wrong shapes are 400, engine refusals (e.g. unknown action) pass on.
    func decode<Value: Decodable>(_ type: Value.Type, _ body: [UInt8]) throws -> Value {
        do {
            return try JSONValueDecoder().decode(Value.self, from: JSONValue(parsing: body))
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
