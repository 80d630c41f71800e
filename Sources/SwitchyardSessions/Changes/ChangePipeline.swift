import Switchyard

/// The change pipeline: one typed request in, what happened out (``ChangeAnswer``).
///
/// Under the session's lock: a retried idempotency key replays its first answer → the version precondition → the
/// change, collecting its commits (each checked against the document limit) → the answer, rendered once by the
/// front end's ``ChangeRendering`` → the store write (the new state, each version's history entry and restore
/// document, and the answer under its key), before anything is acknowledged → the broadcast.
///
/// One loop runs a change again, under one ``RetryPolicy``, whenever its session changed under it:
/// - a write the store refuses because another node changed the session first takes the stored state and runs the
///   change again: without a precondition it applies to the latest version (no update is lost), with one it is now
///   refused, and a retried key now replays;
/// - a copy that left memory while the request waited for it (a reload, an admin change, an eviction, a failed
///   write) is read back from the store, and the change runs on that.
///
/// A write that fails otherwise is answered as a store failure, with nothing acknowledged, and the session leaves
/// memory (the store is the truth). With a shared store, a change without a key may run on a copy nobody compared
/// with it (``LiveSessions/sessionToChange(_:)``): an answer without a write is then given only once a read says
/// the copy is current (behind, it is taken as a conflict).
///
/// A change that may run ahead of the store releases the lock once its write is queued
/// (``SessionArchive/submit(_:after:)``), and is answered once the write is durable; the session's next change runs
/// on it meanwhile (``InFlightWrites``). A write that fails fails every later one of its session (each builds on
/// the version before): the copy ends, and the changes that ran ahead run again on the session read back. Whatever
/// else is answered on versions in flight (a refusal, a change without a write) waits for them.
package final class ChangePipeline: Sendable {
    let sessions: LiveSessions
    let rendering: any ChangeRendering
    /// The sessions' (``LiveSessions/retry``).
    var retry: RetryPolicy { sessions.retry }

    /// The pipeline of `store`'s sessions, whose answers `rendering` renders.
    package init(sessions: LiveSessions, rendering: any ChangeRendering) {
        self.sessions = sessions
        self.rendering = rendering
    }

    /// Applies `request` to `session` (read back from the store whenever the copy leaves memory meanwhile) and
    /// returns what happened, with its answer.
    package func apply(_ request: ChangeRequest, to session: Session) -> ChangeAnswer {
        var run = ChangeRun(request, session: session, shared: sessions.archive.shared != nil)
        var (attempt, readBacks) = (0, 1)
        var lastCause = ChangeRefusal.writeConflict
        retrying: while attempt < retry.attempts {
            retry.pause(before: attempt)
            let session = run.session
            let (turn, version) = session.changing { state in self.turn(&state, &run) }
            switch next(after: turn, run) {
            case .answered(let answer):
                if let version {
                    sessions.counters.countChange(
                        of: version ?? AppVersion(name: session.app, version: 1), accepted: answer.reply.isSuccess)
                }
                return answer
            case .waited:
                run.waited = true  // not an attempt: the change has not run yet
            case .again:
                attempt += 1
                lastCause = .writeConflict
            case .moved:
                // Read back and run again, as often as the policy says; conflicts are counted afresh on each copy.
                guard readBacks < retry.readBacks else {
                    lastCause = .sessionMoved
                    break retrying
                }
                readBacks += 1
                attempt = 0
                if let failure = readBack(&run) { return answer(.refused(.lookup(failure)), run) }
            }
        }
        if case .writeConflict = lastCause {
            sessions.counters.countChange(of: run.session.appVersion, accepted: false)
        }
        return answer(.refused(lastCause), run)
    }

    /// The answer to `run`'s request, which ended as `outcome`.
    func answer(_ outcome: ChangeOutcome, _ run: ChangeRun) -> ChangeAnswer {
        ChangeAnswer(
            ending: outcome.ending, reply: rendering.reply(to: outcome, of: run.request, session: run.session.id))
    }

    /// One turn under the session's lock, with the app version the change is counted under (the outer nil: not
    /// counted).
    private func turn(_ state: inout SessionState, _ run: inout ChangeRun) -> (ChangeTurn, AppVersion??) {
        if run.waited {
            // Taken out of the waiting requests in the same turn that runs it: no change runs ahead in between.
            state.inFlight.stopWaiting()
            run.waited = false
        }
        // Left memory while this request waited: not counted as a change; read back once the writes still in
        // flight are settled.
        if state.ended {
            if let submission = state.inFlight.wait() { return (.wait(submission), nil) }
            return (.moved, nil)
        }
        let version: AppVersion?? = .some(state.engine.app)
        switch attempt(&state, run) {
        case .wait(let submission): return (.wait(submission), nil)
        case .conflict:
            sessions.counters.countConflict()
            run.unchecked = false
            return (caughtUp(&state, run), version)
        case let turn: return (turn, version)
        }
    }

    /// Takes what another node stored, after a write it refused: the change runs again on it, unless the session
    /// is gone or cannot be read.
    private func caughtUp(_ state: inout SessionState, _ run: ChangeRun) -> ChangeTurn {
        switch sessions.catchUp(&state, app: run.session.app) {
        case .current, .caughtUp: return .again
        case .removed: return .answered(answer(.refused(.lookup(.unknown)), run), .evict)
        case .incompatible(let reason):
            return .answered(answer(.refused(.lookup(.incompatible(reason))), run), .evict)
        case .failed(let error):
            let incident = sessions.health.failed(error, during: "catch up", session: state.id)
            return .answered(answer(.refused(.store(incident)), run), .evict)
        }
    }

    /// What is left of a turn once the session's lock is released.
    private func next(after turn: ChangeTurn, _ run: ChangeRun) -> ChangeTurn.Next {
        let session = run.session
        switch turn {
        case .answered(let answer, let aftermath):
            switch aftermath {
            case .none: break
            case .broadcast: sessions.counters.countBroadcast()
            case .evict: sessions.evict(session)
            }
            return .answered(answer)
        case .again, .conflict: return .again
        case .moved: return .moved
        case .wait(let submission):
            _ = submission.awaitOutcome()
            return .waited
        case .pending(let answer, .own(let submission), let transition):
            return finish(answer, written: submission, run, transition: transition).map { .answered($0) } ?? .again
        case .pending(let answer, .earlier(let submission), let transition):
            // An answer without a write stands only on versions that are durable: if one failed, the copy it ran
            // on has ended, and the change runs again on the session read back.
            let outcome = submission.awaitOutcome()
            if session.changing({ $0.ended }) { sessions.evict(session) }
            guard case .success = outcome else { return .again }
            if let transition { sessions.counters.countTransition(accepted: transition) }
            return .answered(answer)
        }
    }

    /// Finishes a change's write in flight (``ArchiveSubmission/finish()``, without the session's lock) and returns
    /// its answer once the write is durable; nil when the write was refused as a conflict, such as one built on a
    /// write of the session that failed (the copy has ended: the change runs again on the session read back). A
    /// write that failed otherwise (on its own, or in a commit that failed as a whole) is the store's failure,
    /// answered as such.
    private func finish(
        _ answer: ChangeAnswer, written submission: any ArchiveSubmission, _ run: ChangeRun, transition: Bool?
    ) -> ChangeAnswer? {
        let session = run.session
        let outcome = submission.finish()
        session.changing { _ in }  // settles the writes whose outcome is known, this one included
        switch outcome {
        case .success:
            sessions.health.succeeded()
            if let transition { sessions.counters.countTransition(accepted: transition) }
            return answer
        case .failure(.conflict):
            sessions.evict(session)
            return nil
        case .failure(let error):
            let incident = sessions.health.failed(error, during: "change", session: session.id)
            sessions.evict(session)
            return self.answer(.refused(.store(incident)), run)
        }
    }

    /// Reads `run`'s session back from the store after its copy left memory; the lookup's failure, if any.
    private func readBack(_ run: inout ChangeRun) -> LookupFailure? {
        do {
            run.session = try sessions.readBack(run.session, key: run.request.key)
        } catch {
            return error
        }
        run.time = run.session.time
        run.unchecked = run.request.key == nil && sessions.archive.shared != nil
        return nil
    }
}
