import Switchyard
import SwitchyardJSON
import SwitchyardSessions

/// Replays one stored session on the candidate (``StoredReplay`` says how), never throwing: whatever the store holds
/// ends as a clean, cut or diverged ``SessionReplay``.
struct SessionReplayer {
    let source: any SessionArchive
    let candidate: ReplayCandidate
    let options: ReplayOptions

    /// History entries read at a time.
    static let page = 200

    /// Where the replay of a session is, between requests.
    private struct Progress {
        var result: SessionReplay
        /// The app version the recording runs at this point (a recorded migration moves it on).
        var recorded: AppVersion
        /// The candidate's app version for the session.
        var running: AppVersion?
        /// Renames from the recording's app version to the candidate's.
        var translation: RouteTranslation
        /// Recorded version → the candidate's version holding the same state.
        var versions: [Int: Int]
        /// The candidate's current version.
        var current: Int
    }

    func replay(_ stored: StoredSession) -> SessionReplay {
        let id = stored.id
        var entries: [StoredChange]
        do {
            entries = try source.history(of: id, after: 0, limit: Self.page)
        } catch {
            return StoredReplay.diverged(id, "the store could not read its history: \(error)")
        }
        // Version 0 (the session as created) is always kept; when the history was trimmed, the oldest kept version
        // is the start, and the requests after it are replayed.
        let start = entries.first.map { $0.version <= 1 ? 0 : $0.version } ?? stored.version
        if start > 0, entries.first?.version == start { entries.removeFirst() }
        let state: [UInt8]
        let recorded: AppVersion
        do {
            guard let kept = try source.state(of: id, at: start) else {
                return StoredReplay.diverged(id, "its first kept state is not readable")
            }
            state = kept
            recorded = try AppVersion.written(in: JSONValue(parsing: kept), app: stored.app)
        } catch {
            return StoredReplay.diverged(id, "its first kept state could not be read: \(error)")
        }
        let seed = StoredSession(
            id: id, app: stored.app, version: start, state: state, lastAccess: candidate.now(), used: true)
        var result = SessionReplay(session: id)
        result.recordedApp = recorded.description
        let opened: ReplayCandidate.Opened
        switch candidate.open(seed) {
        case .success(let value): opened = value
        case .failure(let answer):
            candidate.close(id)
            let reason =
                "the candidate cannot take the session: \(answer.outcome.wording)"
                + (answer.detail.map { " (\($0))" } ?? "")
            result.firstDivergence = ReplayDivergence(candidate: answer.outcome, reason: reason, detail: answer.detail)
            return result
        }
        defer { candidate.close(id) }
        result.candidateApp = opened.app?.description
        var progress = Progress(
            result: result, recorded: recorded, running: opened.app,
            translation: translation(from: recorded, to: opened.app), versions: [start: opened.version],
            current: opened.version)
        var open: RecordedRequest?
        while true {
            let (complete, pending) = RecordedRequest.group(entries, open: open)
            open = pending
            for step in complete where !run(step, &progress) { return progress.result }
            guard let last = entries.last, entries.count == Self.page else { break }
            do {
                entries = try source.history(of: id, after: last.version, limit: Self.page)
            } catch {
                progress.result.firstDivergence = ReplayDivergence(
                    reason: "the store could not read its history: \(error)")
                return progress.result
            }
        }
        if let open { _ = run(open, &progress) }
        return progress.result
    }

    /// Runs one recorded step; false when the session's replay ends there (diverged or cut).
    private func run(_ step: RecordedRequest, _ progress: inout Progress) -> Bool {
        switch step {
        case .migration(let entry, let to, let restart):
            if restart {
                progress.result.cut = "it started over on a retired version's fallback at version \(entry.version)"
                return false
            }
            guard let to, let running = progress.running, running.version >= to else {
                let target = to.map { "\(progress.recorded.name)@\($0)" } ?? "a version it does not name"
                progress.result.cut =
                    "it migrated to \(target) at version \(entry.version), past the candidate's "
                    + (progress.running?.description ?? "version")
                return false
            }
            progress.recorded = AppVersion(name: progress.recorded.name, version: to)
            progress.translation = translation(from: progress.recorded, to: running)
            progress.versions[entry.version] = progress.current
            return true
        case .request(let endpoint, let made):
            return request(endpoint, made, &progress)
        }
    }

    private func request(_ endpoint: String, _ made: [StoredChange], _ progress: inout Progress) -> Bool {
        guard let first = made.first, let last = made.last else { return true }
        guard progress.result.requests < options.maxRequests else {
            progress.result.cut = "the bound of \(options.maxRequests) requests per session was reached"
            return false
        }
        let parsed = try? JSONValue(parsing: first.request)
        if let parsed, parsed["omitted"] != nil, let bytes = RecordedRequest.integer(parsed["bytes"]) {
            progress.result.cut = "the history did not keep request \(progress.result.requests) (\(bytes) bytes)"
            return false
        }
        let body = parsed.flatMap { rewritten($0, endpoint: endpoint, progress) } ?? first.request
        let answer = candidate.request(progress.result.session, endpoint, body)
        progress.result.requests += 1
        // Compared as the candidate names routes; reported as recorded.
        let outcome = { (path: [String]) -> ReplayOutcome in
            first.redirected == nil ? .committed(path: path) : .redirected(path: path)
        }
        guard answer.outcome == outcome(progress.translation.path(last.visiblePath)) else {
            let recorded = outcome(last.visiblePath)
            progress.result.firstDivergence = ReplayDivergence(
                index: progress.result.requests - 1, version: first.version, request: first.request,
                recorded: recorded, candidate: answer.outcome,
                reason: reason(recorded, answer, parsed, progress.translation), detail: answer.detail)
            return false
        }
        if let version = answer.version {
            for (offset, entry) in made.enumerated() {
                progress.versions[entry.version] = version - (made.count - 1 - offset)
            }
            progress.current = version
        }
        return true
    }

    /// The recorded body as the candidate is sent it: renamed through the chain (transitions), with the versions
    /// it names mapped to the candidate's; nil when nothing changes (the recorded bytes are sent as received).
    private func rewritten(_ body: JSONValue, endpoint: String, _ progress: Progress) -> [UInt8]? {
        var changed = endpoint == "transitions" ? progress.translation.transitions(body) : body
        if case .object(var members) = changed {
            for key in ["expectedVersion"] + (endpoint == "restore" ? ["version"] : []) {
                guard let version = RecordedRequest.integer(members[key]), let mapped = progress.versions[version]
                else { continue }
                members[key] = .number(Double(mapped))
            }
            changed = .object(members)
        }
        return changed == body ? nil : Array(changed.serialized())
    }

    /// The one-line reason of a divergence: the route a migration removed that the request or the recorded path
    /// names (or, refused as an unknown route, the one the candidate lacks), if any, then what the request came to
    /// against what was recorded.
    private func reason(
        _ recorded: ReplayOutcome, _ answer: ReplayCandidate.Answer, _ body: JSONValue?,
        _ translation: RouteTranslation
    ) -> String {
        let candidate = answer.outcome
        let recordedPath = recorded.path ?? []
        let requested = body.map(RouteTranslation.routes(in:)) ?? []
        let prefix: String
        if let removed = (requested + recordedPath).first(where: { translation.removal(of: $0) != nil }) {
            prefix = "route '\(removed)' was removed; "
        } else if case .refused("unknownRoute", _) = candidate, !answer.choices.isEmpty,
            let missing = requested.map(translation.route).first(where: { !answer.choices.contains($0) })
        {
            prefix = "route '\(missing)' is not in the candidate; "
        } else {
            prefix = ""
        }
        switch (recorded, candidate) {
        case (.committed(let was), .committed(let now)), (.redirected(let was), .redirected(let now)):
            return prefix
                + "the request \(candidate.wording) on \(ReplayOutcome.pathText(now)), recorded on "
                + ReplayOutcome.pathText(was)
        default:
            return prefix + "the request \(candidate.wording), recorded as \(recorded.wording)"
        }
    }

    /// The renames from `recorded` to `running` (none when they are the same version or no chain leads there).
    private func translation(from recorded: AppVersion, to running: AppVersion?) -> RouteTranslation {
        guard let running, running.name == recorded.name, running.version > recorded.version,
            let app = candidate.apps.first(where: { $0.identity == running }),
            let chain = app.migrationPath(from: recorded.version, through: candidate.apps)
        else { return RouteTranslation(chain: []) }
        return RouteTranslation(chain: chain)
    }
}
