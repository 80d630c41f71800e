import Switchyard

/// One run of the pipeline on the state under the session's lock.
extension ChangePipeline {
    /// A change run on the engine, before its write: what it committed, how it ended, and its answer.
    struct Execution {
        let change: SessionChange
        let commits: [Commit]
        let entries: [HistoryEntry]
        let outcome: ChangeOutcome
        let answer: ChangeAnswer
        /// The transition to count (and whether it was accepted) once the answer stands: not for a run on a copy
        /// found behind; for one on versions in flight, once they are durable.
        let transition: Bool?
        /// The answer to remember under the request's key, if it has one.
        let remembered: (key: String, entry: ReplyCache.Entry)?

        /// Whether the store must be written: versions were made, or an answer to remember under a key succeeded.
        var writes: Bool { !entries.isEmpty || (remembered != nil && answer.reply.isSuccess) }
    }

    /// Runs `run`'s request once on `state`: replays a retried key, refuses what may not run, or runs the change,
    /// writes it and concludes.
    func attempt(_ state: inout SessionState, _ run: ChangeRun) -> ChangeTurn {
        if state.ended { return .moved }
        let runsAhead = mayRunAhead(run.request, state)
        if !runsAhead, let submission = state.inFlight.wait() { return .wait(submission) }
        if let replayed = replayed(run, state) { return .answered(answer(replayed, run), .none) }
        let change: SessionChange
        switch state.admit(run.request) {
        case .failure(let refusal):
            if run.unchecked, let behind = confirmCurrent(&state, run) { return behind }
            return refused(refusal, &state, run)
        case .success(let admitted): change = admitted
        }
        let execution = execute(change, &state, run)
        if !execution.writes, run.unchecked, let behind = confirmCurrent(&state, run) { return behind }
        if execution.writes, let turn = write(execution, runsAhead: runsAhead, &state, run) { return turn }
        return conclude(execution, &state, run)
    }

    /// The outcome of a retry under a key that already answered: its first answer (whole, or rebuilt), or a
    /// refusal when the key answered another request; nil when the key is new (or the request has none).
    private func replayed(_ run: ChangeRun, _ state: SessionState) -> ChangeOutcome? {
        guard let key = run.request.key, let entry = state.replies[key] else { return nil }
        guard entry.fingerprint == run.request.fingerprint else { return .refused(.keyReused(key)) }
        if let reply = entry.reply { return .replayed(reply) }
        if let rebuild = entry.rebuild { return replay(key, rebuild, state, app: run.session.app) }
        return nil
    }

    /// The answer to a request refused before it ran, remembered under its key like every answer (in memory only: a
    /// refusal is not stored); on versions still in flight, answered once they are durable.
    private func refused(_ refusal: ChangeRefusal, _ state: inout SessionState, _ run: ChangeRun) -> ChangeTurn {
        let answer = answer(.refused(refusal), run)
        let request = run.request
        state.refusals.add(
            answer.reply, request: request.body, source: try? request.change.get().source,
            version: state.engine.version, time: run.time)
        if let key = request.key {
            state.replies.store(
                .init(fingerprint: request.fingerprint, reply: answer.reply, rebuild: nil, time: run.time), for: key)
        }
        if let last = state.inFlight.last { return .pending(answer, .earlier(last.submission), transition: nil) }
        return .answered(answer, .none)
    }

    /// Runs `change` on the engine, collecting its commits (each checked against the document limit), and renders
    /// its answer.
    private func execute(_ change: SessionChange, _ state: inout SessionState, _ run: ChangeRun) -> Execution {
        state.documents.beginChange()  // app code runs now: screens may show other data
        let engine = state.engine
        let (id, app) = (state.id, run.session.app)
        let engineRun = state.documents.committing(engine) {
            try sessions.apply(change, to: engine, session: id, app: app)
        }
        let request = run.request
        let cause = SessionCause(
            source: change.source,
            request: HistoryEntry.keptRequest(request.body, limit: sessions.configuration.maxHistoryRequestBytes))
        let commits = engineRun.commits
        let outcome = Self.outcome(of: engineRun.ending, committed: !commits.isEmpty, state.snapshot)
        let answer = answer(outcome, run)
        let remembered = request.key.map { key in
            (
                key: key,
                entry: ReplyCache.Entry(
                    fingerprint: request.fingerprint, reply: answer.reply,
                    rebuild: Self.rebuild(outcome, answer.reply), time: run.time)
            )
        }
        let transition: Bool? = if case .transition = change { (try? engineRun.get()) != nil } else { nil }
        return Execution(
            change: change, commits: commits, entries: state.historyEntries(commits, cause: cause, time: run.time),
            outcome: outcome, answer: answer, transition: transition, remembered: remembered)
    }

    /// Makes the change's answer public: counts it, announces its versions, remembers its answer and keeps a
    /// refusal; on versions still in flight, answered once they are durable.
    private func conclude(_ execution: Execution, _ state: inout SessionState, _ run: ChangeRun) -> ChangeTurn {
        let (answer, transition) = (execution.answer, execution.transition)
        let inFlight = state.inFlight.last?.submission
        if let transition, inFlight == nil { sessions.counters.countTransition(accepted: transition) }
        if execution.entries.isEmpty, !state.matchesStore(sessions.archive) {
            // App code changed data without committing (a handler that failed after changing it): the session
            // leaves memory and comes back from the store, which has it as it was acknowledged.
            state.ended = true
            if let inFlight { return .pending(answer, .earlier(inFlight), transition: transition) }
            return .answered(answer, .evict)
        }
        let broadcast = state.announce(execution.entries)
        if let (key, entry) = execution.remembered { state.replies.store(entry, for: key) }
        // Kept only now, once the answer stands (a write conflict runs the change again; a failed write is the
        // store's failure, not the session's refusal).
        keepRefusal(execution, &state, run)
        if state.subscribers.isEmpty { state.documents.forget() }  // an idle session keeps no rendering
        if let inFlight { return .pending(answer, .earlier(inFlight), transition: transition) }
        return .answered(answer, broadcast ? .broadcast : .none)
    }

    /// Keeps the change's answer among the session's latest refusals, if it was one.
    func keepRefusal(_ execution: Execution, _ state: inout SessionState, _ run: ChangeRun) {
        guard case .refused = execution.outcome else { return }
        state.refusals.add(
            execution.answer.reply, request: run.request.body, source: execution.change.source,
            version: state.engine.version, time: run.time)
    }

    /// Whether `request` may run on versions of the session still in flight, and leave its own write in flight:
    /// not with an idempotency key (its answer is remembered once it is durable), not a restore (it reads the
    /// history the store has), not on a store other nodes write to (each change is compared with it), and not while
    /// a stream follows the session or another request waits for its writes (``SessionState/runsAhead``).
    private func mayRunAhead(_ request: ChangeRequest, _ state: SessionState) -> Bool {
        guard request.key == nil, sessions.archive.shared == nil, state.runsAhead else { return false }
        if case .success(.restore) = request.change { return false }
        return true
    }

    /// Whether a copy is still the stored version, for an answer that has no write (whose compare-and-set would
    /// tell): nil when it is; otherwise how the attempt ends: a conflict when another node moved the session on or
    /// removed it (the copy catches up, and the change runs again or is answered as not found), or the store's
    /// failure (the copy leaves memory: it was not compared).
    private func confirmCurrent(_ state: inout SessionState, _ run: ChangeRun) -> ChangeTurn? {
        guard let shared = sessions.archive.shared else { return nil }
        do {
            guard case .unchanged = try shared.session(state.id, unlessAt: state.announced, reply: nil) else {
                return .conflict
            }
            return nil
        } catch {
            state.ended = true
            let incident = sessions.health.failed(error, during: "change", session: state.id)
            return .answered(answer(.refused(.store(incident)), run), .evict)
        }
    }
}
