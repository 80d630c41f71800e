import Foundation
import MicroHTTP
import Switchyard

/// The endpoints that change a session: transitions, events, deep links. Each runs under the session's lock:
/// idempotency replay, version precondition, the engine call, history, broadcast.
extension SwitchyardAPI {
    func transitions(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let session = try requireSession(id)
        try requireJSON(request)
        return try change(session, request) { engine in
            let body = try decode(TransitionRequest.self, request.body)
            guard !body.steps.isEmpty else { throw Problem.malformed("'steps' must hold at least one step") }
            try checkVersion(body.expectedVersion, request, session, engine)
            let source: HistoryEntry.Source = body.isGesture ? .gesture : .api
            do {
                let end = try session.attributing(source, request: request.body) {
                    try engine.perform(body.steps, from: body.coordinator)
                }
                metrics.countTransition(accepted: true)
                return [
                    "coordinator": .string(end), "type": .string(engine.coordinatorType(of: end) ?? ""),
                ]
            } catch {
                metrics.countTransition(accepted: false)
                throw error
            }
        }
    }

    func events(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let session = try requireSession(id)
        try requireJSON(request)
        return try change(session, request) { engine in
            let body = try decode(EventRequest.self, request.body)
            try checkVersion(body.expectedVersion, request, session, engine)
            guard let sender = body.from ?? engine.visibleItem else {
                throw Problem.malformed("missing member 'from'")
            }
            let event = FlowEvent(name: body.name, payload: body.payload ?? .null, fields: body.fields ?? [:])
            let handler = try session.attributing(.event, request: request.body) {
                try engine.send(event, from: sender)
            }
            return ["handledBy": .string(handler), "type": .string(engine.coordinatorType(of: handler) ?? "")]
        }
    }

    func deepLinks(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let session = try requireSession(id)
        try requireJSON(request)
        return try change(session, request) { engine in
            let body = try decode(DeepLinkRequest.self, request.body)
            try checkVersion(body.expectedVersion, request, session, engine)
            let outcome = try session.attributing(.deeplink, request: request.body) {
                try engine.open(body.url)
            }
            return ["deepLink": .string(outcome == .opened ? "opened" : "pending")]
        }
    }

    /// Runs a change under the session lock with idempotency replay; answers the new state document with `result`.
    private func change(
        _ session: Session, _ request: HTTPRequest,
        _ body: (NavigationEngine) throws -> [String: JSONValue]
    ) throws -> HTTPResponse {
        let key = request.headers["idempotency-key"]
        let fingerprint = key == nil ? 0 : RequestFingerprint.of(request)  // only keyed requests are remembered
        return session.withLock { engine in
            if let key, let stored = session.storedResponse(for: key) {
                guard stored.fingerprint == fingerprint else { return Problem.idempotencyKeyReused(key).response }
                return HTTPResponse(
                    status: stored.status, headers: stored.headers + [("Idempotent-Replayed", "true")],
                    body: stored.body)
            }
            let response: HTTPResponse
            session.documentMayHaveChanged()
            do {
                let result = try body(engine)
                let etag = [("ETag", "\"\(engine.version)\"")]
                if Self.prefersMinimalReturn(request) {
                    response = .json(
                        200, engine.summaryDocument(session: session.id, result: result),
                        headers: noStore + etag + [("Preference-Applied", "return=minimal")])
                } else {
                    response = .json(200, session.document(result: result), headers: noStore + etag)
                }
            } catch let problem as Problem {
                response = problem.response
            } catch let error as NavigationError {
                response = Problem(error).response
            } catch {
                response = Problem(status: 500, code: "internal", title: "Internal error", detail: "\(error)").response
            }
            if let key, case .bytes(let bytes) = response.body {
                session.store(
                    .init(fingerprint: fingerprint, status: response.status, headers: response.headers, body: bytes),
                    for: key)
            }
            session.releaseDocumentUnlessFollowed()
            return response
        }
    }

    /// `Prefer: return=minimal` (RFC 7240): answer a change with the short document (clients following the stream
    /// already get the full one there).
    static func prefersMinimalReturn(_ request: HTTPRequest) -> Bool {
        guard let prefer = request.headers["prefer"] else { return false }
        return prefer.split(separator: ",").contains {
            $0.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "return=minimal"
        }
    }

    /// 412 with the current state when `If-Match` or `expectedVersion` names another version.
    private func checkVersion(
        _ expected: Int?, _ request: HTTPRequest, _ session: Session, _ engine: NavigationEngine
    )
        throws
    {
        if let expected, expected < 0 {
            throw Problem.malformed("'expectedVersion' must be a version (0 or more)")
        }
        var wanted = expected.map { [$0] }
        if let header = request.headers["if-match"] {
            guard let versions = Self.ifMatchVersions(header) else {
                throw Problem.malformed("If-Match must be * or versions in quotes, e.g. \"7\"")
            }
            if !versions.isEmpty { wanted = versions }
        }
        guard let wanted, !wanted.contains(engine.version) else { return }
        let named = wanted.map(String.init).joined(separator: " or ")
        var problem = Problem(
            status: 412, code: "staleVersion", title: "Precondition failed",
            detail: "the session is at version \(engine.version), not \(named); nothing was applied")
        problem.extra = [("currentVersion", Array(String(engine.version).utf8)), ("state", session.document())]
        problem.headers = [("ETag", "\"\(engine.version)\"")]
        throw problem
    }

    /// The versions an `If-Match` value names: `*` is none (any version), else a comma-separated list of strong
    /// ETags `"7"`; nil when malformed.
    static func ifMatchVersions(_ header: String) -> [Int]? {
        let blanks = CharacterSet(charactersIn: " \t")
        let value = header.trimmingCharacters(in: blanks)
        if value == "*" { return [] }
        var versions: [Int] = []
        for part in value.split(separator: ",", omittingEmptySubsequences: false) {
            let tag = part.trimmingCharacters(in: blanks)
            guard tag.count >= 3, tag.count <= 17, tag.first == "\"", tag.last == "\"" else { return nil }
            let digits = tag.dropFirst().dropLast()
            guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let version = Int(digits) else { return nil }
            versions.append(version)
        }
        return versions
    }
}
