import Switchyard
import SwitchyardSessions

/// An error the API answers with a problem document (RFC 9457). Every error an endpoint throws renders itself
/// through this protocol, in one place (``SwitchyardAPI/response(to:session:)``); any other error is a 500.
protocol ProblemRendering: Error {
    /// The problem to answer with; `session` is the session id the request named ("" when none).
    func problem(session: String) -> Problem
}

extension Problem: ProblemRendering {
    func problem(session: String) -> Problem { self }

    /// The problem for any error: its own (``ProblemRendering``), or 500 `internal`.
    init(rendering error: any Error, session: String) {
        self = (error as? any ProblemRendering)?.problem(session: session) ?? .internal("\(error)")
    }
}

extension NavigationError: ProblemRendering {
    func problem(session: String) -> Problem { Problem(self) }
}

extension StoreHealth.Incident: ProblemRendering {
    func problem(session: String) -> Problem { .store(self) }
}

extension LookupFailure: ProblemRendering {
    func problem(session id: String) -> Problem {
        switch self {
        case .unknown: .notFound("no session '\(id)' (it may have expired)", code: "unknownSession")
        case .incompatible(let reason): .sessionIncompatible(id, reason: reason)
        case .store(let incident): .store(incident)
        case .full(let limit, let wait):
            .tooManySessions(
                limit: limit, retryAfter: wait, ", so session '\(id)' cannot be read back from the store now")
        }
    }
}

extension CreateFailure: ProblemRendering {
    func problem(session: String) -> Problem {
        switch self {
        case .full(let limit, let wait): .tooManySessions(limit: limit, retryAfter: wait)
        case .unknownApp(let name, let choices):
            Problem(
                status: 400, code: "unknownApp", title: "Invalid request", detail: "no app named '\(name)'",
                choices: choices)
        case .engine(let reason):
            Problem(
                status: 500, code: "appFailed", title: "Internal error",
                detail: "the app's root coordinator could not start: \(reason)")
        case .firstDocument(.documentTooLarge(let bytes, let limit)):
            Problem(
                status: 500, code: "documentTooLarge", title: "Internal error",
                detail: "the app's first state document would be \(bytes) bytes, over the session's limit of "
                    + "\(limit); no session was created",
                extra: [("limit", Array(String(limit).utf8))])
        case .firstDocument(.renderingBudgetExceeded(let reason)):
            Problem(
                status: 500, code: "renderingBudgetExceeded", title: "Internal error",
                detail: "the app's first screen cannot be rendered within its budget (\(reason)); no session was "
                    + "created")
        case .firstDocument(let refusal): refusal.problem(session: session)
        case .keyTaken:
            // Answered by replaying the other node's creation; reaching here means that one could not be read.
            Problem(
                status: 503, code: "writeConflict", title: "Session busy",
                detail: "a session was created under this key on another node; retry shortly",
                headers: [("Retry-After", "1")])
        case .keyReused(let key): .idempotencyKeyReused(key)
        case .store(let incident): .store(incident)
        }
    }
}

extension ChangeRefusal: ProblemRendering {
    func problem(session id: String) -> Problem {
        switch self {
        case .unreadable(let error):
            Problem(rendering: error, session: id)
        case .navigation(let error): Problem(error)
        case .malformed(let detail): .malformed(detail)
        case .staleVersion(let current, let wanted, let document):
            .stale(
                current: current, document: document, status: 412, code: "staleVersion",
                title: "Precondition failed",
                detail: "the session is at version \(current), not \(wanted.map(String.init).joined(separator: " or "))"
                    + "; nothing was applied")
        case .documentTooLarge(let bytes, let limit):
            Problem(
                status: 409, code: "documentTooLarge", title: "Session limit reached",
                detail: "the change would make the state document \(bytes) bytes, over the session's limit of "
                    + "\(limit); nothing was applied (go back or dismiss something first)",
                extra: [("limit", Array(String(limit).utf8))])
        case .renderingBudgetExceeded(let reason):
            Problem(
                status: 409, code: "renderingBudgetExceeded", title: "Session limit reached",
                detail: "the change would show a screen that cannot be rendered within its budget (\(reason)); "
                    + "nothing was applied")
        case .unknownVersion(let version, let current):
            .notFound(
                "session '\(id)' is at version \(current); version \(version) does not exist yet",
                code: "unknownVersion")
        case .versionNotKept(let version):
            .notFound(
                "version \(version) of session '\(id)' is no longer kept (the store keeps each session's latest "
                    + "versions: see --history-retention and --max-history)", code: "versionNotKept")
        case .incompatible(let reason): .sessionIncompatible(id, reason: reason)
        case .keyReused(let key): .idempotencyKeyReused(key)
        case .replayUnavailable(let key, let version):
            Problem(
                status: 409, code: "replayUnavailable", title: "Already applied",
                detail: "the request under Idempotency-Key '\(key)' was applied as version \(version) of session "
                    + "'\(id)', which is no longer kept: its answer cannot be given again, and nothing was applied "
                    + "again (read the session's current state)")
        case .sessionMoved: .sessionMoved(id)
        case .writeConflict:
            Problem(
                status: 503, code: "writeConflict", title: "Session busy",
                detail: "session '\(id)' kept changing on other nodes while this change ran; nothing was "
                    + "applied, retry shortly",
                headers: [("Retry-After", "1")])
        case .lookup(let failure): failure.problem(session: id)
        case .store(let incident): .store(incident)
        case .failed(let reason): .internal(reason)
        }
    }
}
