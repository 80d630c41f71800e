import MicroHTTP
import Switchyard
import SwitchyardSessions

/// An error the API answers with: status and an `application/problem+json` body.
struct Problem: Error {
    let status: Int
    let code: String
    let title: String
    let detail: String
    var choices: [String] = []
    var extra: [(String, [UInt8])] = []
    var headers: [(String, String)] = []

    /// The HTTP status for an engine refusal.
    static func status(for category: NavigationError.Category) -> Int {
        switch category {
        case .invalidRequest: return 400
        case .invalidInput: return 422
        case .conflict: return 409
        case .forbidden: return 403
        case .notFound: return 404
        }
    }

    init(
        status: Int, code: String, title: String, detail: String, choices: [String] = [],
        extra: [(String, [UInt8])] = [], headers: [(String, String)] = []
    ) {
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.choices = choices
        self.extra = extra
        self.headers = headers
    }

    /// The problem for an engine refusal.
    init(_ error: NavigationError) {
        let titles: [NavigationError.Category: String] = [
            .invalidRequest: "Invalid request", .invalidInput: "Invalid input",
            .conflict: "Refused by a navigation rule", .forbidden: "Refused by a route guard",
            .notFound: "Not found",
        ]
        self.init(
            status: Self.status(for: error.category), code: error.code, title: titles[error.category] ?? "Refused",
            detail: error.message, choices: error.choices)
    }

    /// The problem for an engine refusal that left the session at `version` (a guard's committed redirect), with
    /// where it is now, as ``stale(current:document:status:code:title:detail:choices:)`` says it.
    init(_ error: NavigationError, now version: Int, document: [UInt8]) {
        let plain = Problem(error)
        self = .stale(
            current: version, document: document, status: plain.status, code: plain.code, title: plain.title,
            detail: plain.detail, choices: plain.choices)
    }

    static func malformed(_ detail: String) -> Problem {
        Problem(status: 400, code: "malformedRequest", title: "Malformed request", detail: detail)
    }

    static func notFound(_ detail: String, code: String = "notFound") -> Problem {
        Problem(status: 404, code: code, title: "Not found", detail: detail)
    }

    /// The durable store failed and nothing of the request was applied or acknowledged: 503 with `Retry-After`
    /// when a retry may succeed, 500 when the stored data cannot be read. The detail is fixed text naming the
    /// incident; what went wrong is in the server's log under that id, never in the answer.
    /// `data` names what could not be read, `kept` what was therefore not done.
    static func store(
        _ incident: StoreHealth.Incident, data: String = "this session's stored data",
        kept: String = "nothing was applied"
    ) -> Problem {
        var problem: Problem
        if case .unreadable = incident.error {
            problem = Problem(
                status: 500, code: "storeUnreadable", title: "Stored data unreadable",
                detail: "\(data) cannot be read, so \(kept); the server's log names the cause under incident "
                    + incident.id)
        } else {
            problem = Problem(
                status: 503, code: "storeUnavailable", title: "Store unavailable",
                detail: "the session store cannot be used right now, so \(kept); retry shortly (incident "
                    + "\(incident.id))",
                headers: [("Retry-After", "1")])
        }
        problem.extra = [("incident", Array("\"\(incident.id)\"".utf8))]
        return problem
    }

    /// 500 `internal`: app code failed in a way the engine does not describe.
    static func `internal`(_ detail: String) -> Problem {
        Problem(status: 500, code: "internal", title: "Internal error", detail: detail)
    }

    /// A problem saying where the session is now: its version (`currentVersion`), its state document (`state`)
    /// and an `ETag` (a stale precondition, a committed guard redirect).
    static func stale(
        current: Int, document: [UInt8], status: Int, code: String, title: String, detail: String,
        choices: [String] = []
    ) -> Problem {
        Problem(
            status: status, code: code, title: title, detail: detail, choices: choices,
            extra: [("currentVersion", Array(String(current).utf8)), ("state", document)],
            headers: [("ETag", "\"\(current)\"")])
    }

    /// 429: a client address used its allowance of the last minute (`code`, what it did); retry in `wait` s.
    static func rateLimited(code: String, title: String, _ detail: String, retryAfter wait: Int) -> Problem {
        Problem(
            status: 429, code: code, title: title, detail: detail + "; retry in \(wait) s",
            headers: [("Retry-After", String(wait))])
    }

    /// 503 `tooManySessions`: the server holds its maximum of `limit` live sessions (`why` says what that refused),
    /// with `Retry-After` the time until there is room (``LiveSessions/secondsUntilRoom()``).
    static func tooManySessions(limit: Int, retryAfter wait: Int, _ why: String = "") -> Problem {
        Problem(
            status: 503, code: "tooManySessions", title: "Too many sessions",
            detail: "the server holds its maximum of \(limit) live sessions\(why); there is room again in about "
                + "\(wait) s",
            headers: [("Retry-After", String(wait))])
    }

    /// 503 with `Retry-After`: the session left memory while this request waited for it (deleted, expired, or
    /// its last change could not be stored); a retry reads it back from the store, or gets 404.
    static func sessionMoved(_ id: String) -> Problem {
        Problem(
            status: 503, code: "sessionReloading", title: "Session reloading",
            detail: "session '\(id)' left memory while this request waited for it; nothing was applied, retry shortly",
            headers: [("Retry-After", "1")])
    }

    /// 410: a stored session that the app as it runs now cannot restore (a route or coordinator renamed).
    static func sessionIncompatible(_ id: String, reason: String) -> Problem {
        Problem(
            status: 410, code: "sessionIncompatible", title: "Session no longer usable",
            detail: "session '\(id)' was stored by a version of the app that no longer matches this one (\(reason)); "
                + "create a new session")
    }

    /// 422: an `Idempotency-Key` already answered a different request.
    static func idempotencyKeyReused(_ key: String) -> Problem {
        Problem(
            status: 422, code: "idempotencyKeyReused", title: "Idempotency key reused",
            detail: "the Idempotency-Key '\(key)' was used for a different request; use a new key for a new request")
    }

    var response: HTTPResponse {
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.member("type", "/problems/\(code)")
        writer.member("title", title)
        writer.member("status", status)
        writer.member("detail", detail)
        writer.member("code", code)
        if !choices.isEmpty {
            writer.key("choices")
            writer.beginArray()
            for choice in choices { writer.string(choice) }
            writer.endArray()
        }
        for (name, json) in extra {
            writer.key(escaping: name)
            writer.raw(json)
        }
        writer.endObject()
        return HTTPResponse(
            status: status,
            headers: [("Content-Type", "application/problem+json"), ("Cache-Control", "no-store")] + headers,
            body: writer.bytes)
    }
}
