import Foundation
import MicroHTTP
import Switchyard

/// The endpoints that change a session: transitions, events, deep links. Each runs under the session's lock:
/// idempotency replay, version precondition, the engine call, history, broadcast.
extension SwitchyardAPI {
    /// What a change did: the `result` members of its answer and where it came from (for the history).
    struct ChangeResult {
        var result: [String: JSONValue]
        var source: HistorySource
    }

    /// Whether a change request is applied or only previewed (``preview(_:_:_:)``).
    enum ChangeMode {
        case apply, preview
    }

    func transitions(_ id: String, _ request: HTTPRequest, mode: ChangeMode = .apply) throws -> HTTPResponse {
        let session = try requireSession(id, key: request.headers["idempotency-key"])
        try requireJSON(request)
        return run(mode, session, request, source: .api) { state in
            let body = try decode(TransitionRequest.self, request.body)
            guard !body.steps.isEmpty else { throw Problem.malformed("'steps' must hold at least one step") }
            try checkVersion(body.expectedVersion, request, state)
            do {
                let end = try state.engine.perform(body.steps, from: body.coordinator)
                if mode == .apply { metrics.countTransition(accepted: true) }
                return ChangeResult(
                    result: [
                        "coordinator": .string(end.description),
                        "type": .string(state.engine.coordinatorType(of: end) ?? ""),
                    ],
                    source: body.isGesture ? .gesture : .api)
            } catch {
                if mode == .apply { metrics.countTransition(accepted: false) }
                throw error
            }
        }
    }

    func events(_ id: String, _ request: HTTPRequest, mode: ChangeMode = .apply) throws -> HTTPResponse {
        let session = try requireSession(id, key: request.headers["idempotency-key"])
        try requireJSON(request)
        return run(mode, session, request, source: .event) { state in
            let body = try decode(EventRequest.self, request.body)
            try checkVersion(body.expectedVersion, request, state)
            guard let sender = body.from ?? state.engine.visibleItem?.description else {
                throw Problem.malformed("missing member 'from'")
            }
            let event = FlowEvent(name: body.name, payload: body.payload ?? .null, fields: body.fields ?? [:])
            let handler = try state.engine.send(event, from: sender)
            return ChangeResult(
                result: [
                    "handledBy": .string(handler.description),
                    "type": .string(state.engine.coordinatorType(of: handler) ?? ""),
                ],
                source: .event)
        }
    }

    func deepLinks(_ id: String, _ request: HTTPRequest, mode: ChangeMode = .apply) throws -> HTTPResponse {
        let session = try requireSession(id, key: request.headers["idempotency-key"])
        try requireJSON(request)
        return run(mode, session, request, source: .deeplink) { state in
            let body = try decode(DeepLinkRequest.self, request.body)
            try checkVersion(body.expectedVersion, request, state)
            let outcome = try state.engine.open(body.url)
            return ChangeResult(
                result: ["deepLink": .string(outcome == .opened ? "opened" : "pending")], source: .deeplink)
        }
    }

    /// `POST /api/sessions/{id}/restore`: returns the session to an earlier version (from the store's history) as
    /// a new change: the version grows, the history records it, streams follow.
    func restore(_ id: String, _ request: HTTPRequest, mode: ChangeMode = .apply) throws -> HTTPResponse {
        let session = try requireSession(id, key: request.headers["idempotency-key"])
        try requireJSON(request)
        return run(mode, session, request, source: .restore) { state in
            let body = try decode(RestoreRequest.self, request.body)
            // A malformed body is a 400 whatever the precondition says.
            guard body.version >= 0 else { throw Problem.malformed("'version' must be a version (0 or more)") }
            try checkVersion(body.expectedVersion, request, state)
            let current = state.engine.version
            guard body.version <= current else {
                throw Problem.notFound(
                    "session '\(id)' is at version \(current); version \(body.version) does not exist yet",
                    code: "unknownVersion")
            }
            let saved = try body.version == current ? state.engine.restoreDocument() : stored(session, body.version)
            do {
                try state.engine.restore(to: try JSONValue(parsing: saved))
            } catch let error as NavigationError
                where error.category != .forbidden && error.code != NavigationError.redirectedCode
            {
                // A guard's refusal (403 `restoreGuarded`), or a redirect met by a result handler, is not an
                // incompatible document: it is answered as it is.
                metrics.countIncompatible()
                throw Problem.sessionIncompatible(id, reason: error.message)
            }
            return ChangeResult(result: ["restoredFrom": .number(Double(body.version))], source: .restore)
        }
    }

    /// The stored restore document of an earlier version; 404 `versionNotKept` when the store has none.
    private func stored(_ session: Session, _ version: Int) throws -> [UInt8] {
        guard let saved = try restoreDocument(of: session, at: version) else {
            throw Problem.notFound(notKept(session, version), code: "versionNotKept")
        }
        return saved
    }

    /// Applies the change, or previews it.
    private func run(
        _ mode: ChangeMode, _ session: Session, _ request: HTTPRequest, source: HistorySource,
        _ body: (inout SessionState) throws -> ChangeResult
    ) -> HTTPResponse {
        switch mode {
        case .apply: change(session, request, source: source, body)
        case .preview: preview(session, request, body)
        }
    }

    /// The change pipeline, under the session's lock: replay a retried idempotency key → run the change, collecting
    /// its commits → store them (with a durable store: before anything else, and a failure answers 503 with
    /// nothing acknowledged) → record them in the history and broadcast the new state → answer (and remember the
    /// answer under the key). `source` is where a change comes from when `body` cannot say (it failed after
    /// committing).
    ///
    /// When the store refuses the write because another node changed the session first, the session takes the
    /// stored state and the change runs again on it, a few times at most: without a precondition it applies to the
    /// latest version (no update is lost), with one it now answers 412, and a retried key now replays.
    private func change(
        _ session: Session, _ request: HTTPRequest, source: HistorySource,
        _ body: (inout SessionState) throws -> ChangeResult
    ) -> HTTPResponse {
        for attempt in 0..<Self.conflictAttempts {
            if attempt > 1 {
                // Nodes racing for one session: a random pause, longer each time, so that one of them gets through.
                usleep(UInt32.random(in: 0...UInt32(500 * attempt)))
            }
            let (response, outcome) = changeOnce(session, request, source: source, body)
            switch outcome {
            case .broadcast: metrics.countBroadcast()
            case .notStored:
                sessions.evict(session)
            case .diverged: sessions.evict(session)
            case .answered: break
            case .conflict(let caughtUp):
                metrics.countConflict()
                // Its engine holds the change that was not stored, unless it caught up: it must not stay in memory.
                if case .failed = caughtUp { sessions.evict(session) }
                do {
                    try sessions.settle(caughtUp, of: session)
                } catch {
                    return problem(error, session.id).response
                }
                continue
            }
            return response
        }
        return Problem(
            status: 503, code: "writeConflict", title: "Session busy",
            detail: "session '\(session.id)' kept changing on other nodes while this change ran; nothing was "
                + "applied, retry shortly",
            headers: [("Retry-After", "1")]
        ).response
    }

    /// How many times a change runs when other nodes keep changing its session first.
    static let conflictAttempts = 16

    /// One run of the change pipeline (``change(_:_:source:_:)``).
    private func changeOnce(
        _ session: Session, _ request: HTTPRequest, source: HistorySource,
        _ body: (inout SessionState) throws -> ChangeResult
    ) -> (HTTPResponse, ChangeOutcome) {
        let key = request.headers["idempotency-key"]
        let fingerprint = key == nil ? 0 : RequestFingerprint.of(request)  // only keyed requests are remembered
        let time = session.time
        return session.withState { state -> (HTTPResponse, ChangeOutcome) in
            if state.ended { return (Problem.sessionMoved(session.id).response, .answered) }
            if let key, let stored = state.replies[key] {
                let replay =
                    stored.fingerprint == fingerprint
                    ? HTTPResponse(
                        status: stored.status, headers: stored.headers + [("Idempotent-Replayed", "true")],
                        body: stored.body)
                    : Problem.idempotencyKeyReused(key).response
                return (replay, .answered)
            }
            state.documents.beginChange()  // app code runs now: screens may show other data
            let engine = state.engine
            let (outcome, commits) = engine.collectingCommits { try body(&state) }
            // Hooks run after a commit's check rendered its document: render again after them.
            if commits.contains(where: \.ranLifecycleHooks) { state.documents.forget() }
            let cause = SessionCause(
                source: (try? outcome.get())?.source ?? source,
                request: HistoryEntry.keptRequest(request.body, limit: configuration.maxHistoryRequestBytes))
            let entries = state.historyEntries(commits, cause: cause, time: time)
            let response = respond(to: request, with: outcome, state)
            var reply: ReplyCache.Reply?
            if key != nil, case .bytes(let bytes) = response.body {
                reply = .init(fingerprint: fingerprint, status: response.status, headers: response.headers, body: bytes)
            }
            if let archive = configuration.archive, !entries.isEmpty || (reply != nil && response.status < 300) {
                do {
                    let stored = reply.flatMap { reply in
                        key.map {
                            StoredReply(
                                key: $0, fingerprint: fingerprint, session: session.id, status: reply.status,
                                headers: reply.headers, body: reply.body)
                        }
                    }
                    let write = try state.archiveWrite(
                        entries, reply: stored, hooksRanAfterLastCommit: commits.last?.ranLifecycleHooks ?? false)
                    try archive.apply([write])
                    sessions.health.succeeded()
                } catch ArchiveError.conflict {
                    // Another node changed the session first: take what it stored, then run again.
                    return (
                        Problem.sessionMoved(session.id).response, .conflict(sessions.catchUp(&state, app: session.app))
                    )
                } catch {
                    // Not stored, so not acknowledged: the session leaves memory and is read back from the store
                    // (as it was before this change) by the next request.
                    state.ended = true
                    let incident = sessions.health.failed(
                        error as? ArchiveError ?? .unavailable("\(error)"), during: "change", session: session.id)
                    return (Problem.store(incident).response, .notStored)
                }
            }
            if let archive = configuration.archive, entries.isEmpty, !state.matchesStore(archive) {
                // App code changed data without committing (a handler that failed after changing it): the
                // session leaves memory and comes back from the store, which has it as it was acknowledged.
                state.ended = true
                return (response, .diverged)
            }
            let broadcast = state.record(entries)
            if let key, let reply { state.replies.store(reply, for: key) }
            if state.subscribers.isEmpty { state.documents.forget() }  // an idle session keeps no rendering
            return (response, broadcast ? .broadcast : .answered)
        }
    }

    /// What a change did to the session, for the work done after its lock is released.
    private enum ChangeOutcome {
        case answered, broadcast, notStored, diverged
        /// The store refused the write (another node changed the session first); the session caught up.
        case conflict(SessionStore.CatchUp)
    }

    /// The answer to a change: the new state document with `result` (or the summary for `Prefer: return=minimal`),
    /// or the problem it ended with.
    private func respond(
        to request: HTTPRequest, with outcome: Result<ChangeResult, any Error>, _ state: SessionState
    ) -> HTTPResponse {
        switch outcome {
        case .success(let change):
            let etag = [("ETag", "\"\(state.engine.version)\"")]
            if Self.prefersMinimalReturn(request) {
                return .json(
                    200, state.engine.summaryDocument(session: state.id, result: change.result),
                    headers: noStore + etag + [("Preference-Applied", "return=minimal")])
            }
            return .json(200, state.document(result: change.result), headers: noStore + etag)
        case .failure(let problem as Problem):
            return problem.response
        case .failure(let error as NavigationError) where error.code == NavigationError.redirectedCode:
            // The redirect committed: say where the session is now, as a 412 does.
            var problem = Problem(error)
            problem.extra = [
                ("currentVersion", Array(String(state.engine.version).utf8)), ("state", state.document()),
            ]
            problem.headers = [("ETag", "\"\(state.engine.version)\"")]
            return problem.response
        case .failure(let error as NavigationError):
            return Problem(error).response
        case .failure(let error):
            return Problem(status: 500, code: "internal", title: "Internal error", detail: "\(error)").response
        }
    }

    /// `Prefer: return=minimal` (RFC 7240): answer a change with the short document (clients following the stream
    /// already get the full one there).
    static func prefersMinimalReturn(_ request: HTTPRequest) -> Bool {
        guard let prefer = request.headers["prefer"] else { return false }
        // On the bytes: Foundation's trimming cost ~6 % of a minimal transition's CPU.
        return prefer.utf8.split(separator: UInt8(ascii: ",")).contains { preference in
            let token = preference.prefix { $0 != UInt8(ascii: ";") }
            let blank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            let trimmed = token.drop(while: blank).reversed().drop(while: blank)
            return trimmed.elementsEqual("return=minimal".utf8.reversed()) {
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 == $1 : $0 == $1
            }
        }
    }

    /// 412 with the current state when `If-Match` or `expectedVersion` names another version.
    private func checkVersion(_ expected: Int?, _ request: HTTPRequest, _ state: SessionState) throws {
        let engine = state.engine
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
        problem.extra = [("currentVersion", Array(String(engine.version).utf8)), ("state", state.document())]
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
