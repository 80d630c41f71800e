import Switchyard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The change pipeline: one typed request in, one outcome out, rendered by the front end.
extension SessionStore {
    /// What is left to do once the session's lock is released.
    private enum Aftermath {
        case none, broadcast
        /// The session's copy in memory must go (its change was not stored, or app code changed data without a
        /// commit): the store has it as it was acknowledged.
        case evict
    }

    /// How many times a change runs when other nodes keep changing its session first.
    static let conflictAttempts = 16

    /// Applies `request` to `session` and returns the answer `render` makes of the outcome.
    ///
    /// Under the session's lock: a retried idempotency key replays its first answer → the version precondition →
    /// the change, collecting its commits (each checked against the document limit) → the answer, rendered →
    /// the store write (the new state, each version's history entry and restore document, and the answer under
    /// its key), before anything is acknowledged → the broadcast. A write the store refuses because another node
    /// changed the session first takes the stored state and runs the change again, a few times at most: without a
    /// precondition it applies to the latest version (no update is lost), with one it is now refused, and a retried
    /// key now replays. A write that fails otherwise is answered as a store failure, with nothing acknowledged, and
    /// the session leaves memory (the store is the truth). With a shared store, a change without a key may run on a
    /// copy nobody compared with it (``sessionToChange(_:)``): an answer without a write is then given only once a
    /// read says the copy is current (behind, it is taken as a conflict).
    ///
    /// A change that may run ahead of the store (``mayRunAhead(_:_:)``) releases the lock once its write is queued
    /// (``SessionArchive/submit(_:after:)``), and is answered once the write is durable; the session's next change
    /// runs on it meanwhile. A write that fails fails every later one of its session (each builds on the version
    /// before): the copy ends, and the changes that ran ahead run again on the session read back. Whatever else is
    /// answered on versions in flight (a refusal, a change without a write) waits for them.
    package func change(
        _ session: Session, _ request: ChangeRequest, render: (ChangeOutcome) -> SessionReply
    ) -> SessionReply {
        let time = session.time
        // A change without a key may run on a copy that was not compared with a shared store
        // (``sessionToChange(_:)``): until it has caught up once, an answer without a write is checked first.
        var unchecked = request.key == nil && archive.shared != nil
        var attempt = 0
        // Set after waiting for the session's writes in flight: the next turn takes this request out of
        // `SessionState.waiting`, in the same turn that runs it (no change runs ahead in between).
        var waited = false
        while attempt < Self.conflictAttempts {
            if attempt > 1 {
                // Nodes racing for one session: a random pause (without the lock, so that this node's other
                // requests go on), longer each time, so that one of them gets through.
                usleep(UInt32.random(in: 0...UInt32(500 * attempt)))
            }
            let (step, version) = session.changing { state -> (Step, AppVersion??) in
                if waited {
                    state.waiting -= 1
                    waited = false
                }
                // Left memory while this request waited: not counted as a change (the caller reads it back, once
                // the writes still in flight are settled).
                if state.ended {
                    if let last = state.inFlight.last {
                        state.waiting += 1
                        return (.settleFirst(last.submission), nil)
                    }
                    return (.answer(render(.refused(.sessionMoved)), .none), nil)
                }
                // The version the change is counted under (the outer nil: not counted).
                let version: AppVersion?? = .some(state.engine.app)
                let attempt = attemptChange(
                    &state, app: session.app, request, time: time, unchecked: unchecked, render: render)
                switch attempt {
                case .done(let reply, let aftermath):
                    return (.answer(reply, aftermath), version)
                case .settleFirst(let submission):
                    state.waiting += 1
                    return (.settleFirst(submission), nil)
                case .inFlight(let reply, let submission, let transition):
                    return (.inFlight(reply, submission, transition: transition), version)
                case .afterInFlight(let reply, let submission, let transition):
                    return (.afterInFlight(reply, submission, transition: transition), version)
                case .conflict:
                    counters.countConflict()
                    // Take what the other node stored, then run again on it.
                    unchecked = false
                    switch catchUp(&state, app: session.app) {
                    case .current, .caughtUp: return (.answer(nil, .none), version)
                    case .removed: return (.answer(render(.refused(.lookup(.unknown))), .evict), version)
                    case .incompatible(let reason):
                        return (.answer(render(.refused(.lookup(.incompatible(reason)))), .evict), version)
                    case .failed(let error):
                        let incident = health.failed(error, during: "catch up", session: session.id)
                        return (.answer(render(.refused(.store(incident))), .evict), version)
                    }
                }
            }
            let reply: SessionReply?
            switch step {
            case .answer(let answer, let aftermath):
                switch aftermath {
                case .none: break
                case .broadcast: counters.countBroadcast()
                case .evict: evict(session)
                }
                reply = answer
            case .settleFirst(let submission):
                // Not an attempt: the change has not run yet.
                _ = submission.awaitOutcome()
                waited = true
                continue
            case .inFlight(let answer, let submission, let transition):
                reply = settle(answer, written: submission, of: session, transition: transition, render: render)
            case .afterInFlight(let answer, let submission, let transition):
                // An answer without a write stands only on versions that are durable: if one failed, the copy
                // it ran on has ended, and the change runs again on the session read back.
                let outcome = submission.awaitOutcome()
                if session.changing({ $0.ended }) { evict(session) }
                switch outcome {
                case .success:
                    if let transition { counters.countTransition(accepted: transition) }
                    reply = answer
                case .failure: reply = nil
                }
            }
            if let reply {
                if let version {
                    counters.countChange(
                        of: version ?? AppVersion(name: session.app, version: 1), accepted: reply.isSuccess)
                }
                return reply
            }
            attempt += 1
        }
        counters.countChange(of: session.appVersion, accepted: false)
        return render(.refused(.writeConflict))
    }

    /// What one turn under the session's lock leaves to do without it.
    private enum Step {
        /// The answer (nil: run the change again), and what follows it.
        case answer(SessionReply?, Aftermath)
        /// Wait for the session's writes in flight, then run the change (it may not run ahead of them).
        case settleFirst(any ArchiveSubmission)
        /// The change's write is in flight: finish it, then answer.
        case inFlight(SessionReply, any ArchiveSubmission, transition: Bool?)
        /// An answer without a write, given once the session's writes in flight are durable (and the transition
        /// it counts then, if any).
        case afterInFlight(SessionReply, any ArchiveSubmission, transition: Bool?)
    }

    /// Finishes a change's write in flight (``ArchiveSubmission/finish()``, without the session's lock) and returns
    /// its answer once the write is durable; nil when the write was refused as a conflict, such as one built on a
    /// write of the session that failed (the copy has ended: the change runs again on the session read back). A
    /// write that failed otherwise (on its own, or in a commit that failed as a whole) is the store's failure,
    /// answered as such.
    private func settle(
        _ answer: SessionReply, written submission: any ArchiveSubmission, of session: Session, transition: Bool?,
        render: (ChangeOutcome) -> SessionReply
    ) -> SessionReply? {
        let outcome = submission.finish()
        session.changing { _ in }  // settles the writes whose outcome is known, this one included
        switch outcome {
        case .success:
            health.succeeded()
            if let transition { counters.countTransition(accepted: transition) }
            return answer
        case .failure(.conflict):
            evict(session)
            return nil
        case .failure(let error):
            let incident = health.failed(error, during: "change", session: session.id)
            evict(session)
            return render(.refused(.store(incident)))
        }
    }

    private enum Attempt {
        case done(SessionReply, Aftermath)
        /// The store refused the write: another node changed the session first.
        case conflict
        /// Writes of the session are in flight, and this change may not run ahead of them.
        case settleFirst(any ArchiveSubmission)
        /// The change ran ahead of the store: its write is in flight (`transition`: the transition to count once
        /// it is durable, and whether it was accepted).
        case inFlight(SessionReply, any ArchiveSubmission, transition: Bool?)
        /// The change made no write (or could not), but ran on versions still in flight: its answer waits for them
        /// (`transition`: as for ``inFlight``).
        case afterInFlight(SessionReply, any ArchiveSubmission, transition: Bool?)
    }

    /// One run of the pipeline (``change(_:_:render:)``) on the state under the lock; `unchecked`: the copy may be
    /// behind a shared store, so an answer without a write is given only once a read says it is not.
    private func attemptChange(
        _ state: inout SessionState, app: String, _ request: ChangeRequest, time: Double, unchecked: Bool,
        render: (ChangeOutcome) -> SessionReply
    ) -> Attempt {
        if state.ended { return .done(render(.refused(.sessionMoved)), .none) }
        let runsAhead = mayRunAhead(request, state)
        if let last = state.inFlight.last, !runsAhead { return .settleFirst(last.submission) }
        if let key = request.key, let entry = state.replies[key] {
            guard entry.fingerprint == request.fingerprint else {
                return .done(render(.refused(.keyReused(key))), .none)
            }
            if let reply = entry.reply { return .done(render(.replayed(reply)), .none) }
            if let rebuild = entry.rebuild { return .done(render(replay(key, rebuild, state, app: app)), .none) }
        }
        let change: SessionChange
        switch state.admit(request) {
        case .failure(let refusal):
            if unchecked, let behind = confirmCurrent(&state, render: render) { return behind }
            let reply = refuse(refusal, request, &state, time: time, render: render)
            // Refused on versions still in flight: answered once they are durable.
            if let last = state.inFlight.last { return .afterInFlight(reply, last.submission, transition: nil) }
            return .done(reply, .none)
        case .success(let admitted): change = admitted
        }
        state.documents.beginChange()  // app code runs now: screens may show other data
        let engine = state.engine
        let id = state.id
        let (result, commits) = state.documents.checkingCommits(of: engine) {
            engine.collectingCommits { try apply(change, to: engine, session: id, app: app) }
        }
        // Hooks run after a commit's check rendered its document: render again after them.
        if commits.contains(where: \.ranLifecycleHooks) { state.documents.forget() }
        let cause = SessionCause(
            source: change.source,
            request: HistoryEntry.keptRequest(request.body, limit: configuration.maxHistoryRequestBytes))
        let entries = state.historyEntries(commits, cause: cause, time: time)
        let ended = outcome(of: result, committed: !commits.isEmpty, state.snapshot)
        let reply = render(ended)
        // The transition to count (and whether it was accepted) once the answer stands: not for a run on a copy
        // found behind; for one on versions in flight, once they are durable.
        let transition: Bool? = if case .transition = change { (try? result.get()) != nil } else { nil }
        let remembered = request.key.map { key in
            (
                key,
                ReplyCache.Entry(
                    fingerprint: request.fingerprint, reply: reply, rebuild: Self.rebuild(ended, reply), time: time)
            )
        }
        let writes = !entries.isEmpty || (remembered != nil && reply.isSuccess)
        if !writes, unchecked, let behind = confirmCurrent(&state, render: render) { return behind }
        if writes {
            // The answer to a request that committed is stored as what rebuilds it (its version and result, or its
            // redirect), so that the store keeps a key for every such request, whatever its documents weigh.
            let stored = remembered.map { key, entry in
                StoredReply(
                    key: key, fingerprint: entry.fingerprint, session: id, status: reply.status,
                    headers: reply.headers, body: entry.rebuild?.storedBody ?? reply.body)
            }
            do {
                let write = try state.archiveWrite(
                    entries, reply: stored, hooksRanAfterLastCommit: commits.last?.ranLifecycleHooks ?? false,
                    deltas: archive.storesDeltas)
                let submission = archive.submit([write], after: state.inFlight.last?.submission)
                // In flight if it is not settled yet, or if writes before it are (which settle in order).
                if runsAhead, submission.outcome == nil || !state.inFlight.isEmpty,
                    case .change(_, _, let version, let document, _, _) = write
                {
                    // The session's next change may run now: this one is answered once it is durable.
                    state.submitted(
                        InFlightWrite(submission: submission, version: version, entries: entries, state: document),
                        deltas: archive.storesDeltas)
                    if state.subscribers.isEmpty { state.documents.forget() }
                    if case .refused = ended {
                        state.refusals.add(
                            reply, request: request.body, source: change.source, version: engine.version, time: time)
                    }
                    return .inFlight(reply, submission, transition: transition)
                }
                try submission.finish().get()
                health.succeeded()
                if case .change(_, _, _, let stored, _, _) = write {
                    state.stored(stored, deltas: archive.storesDeltas)
                }
            } catch ArchiveError.conflict where state.inFlight.isEmpty {
                return .conflict
            } catch {
                // Not stored, so not acknowledged: the session leaves memory and is read back from the store (as it
                // was before this change) by the next request; once the writes still in flight are settled, so that
                // the store it is read back from has those that are durable.
                state.ended = true
                let incident = health.failed(
                    error as? ArchiveError ?? .unavailable("\(error)"), during: "change", session: id)
                let reply = render(.refused(.store(incident)))
                if let last = state.inFlight.last { return .afterInFlight(reply, last.submission, transition: nil) }
                return .done(reply, .evict)
            }
        }
        let inFlight = state.inFlight.last?.submission
        if let transition, inFlight == nil { counters.countTransition(accepted: transition) }
        if entries.isEmpty, !state.matchesStore(archive) {
            // App code changed data without committing (a handler that failed after changing it): the session
            // leaves memory and comes back from the store, which has it as it was acknowledged.
            state.ended = true
            if let inFlight { return .afterInFlight(reply, inFlight, transition: transition) }
            return .done(reply, .evict)
        }
        let broadcast = state.announce(entries)
        if let (key, entry) = remembered { state.replies.store(entry, for: key) }
        if case .refused = ended {
            // Kept only now, once the answer stands (a write conflict runs the change again; a failed write is the
            // store's failure, not the session's refusal).
            state.refusals.add(
                reply, request: request.body, source: change.source, version: engine.version, time: time)
        }
        if state.subscribers.isEmpty { state.documents.forget() }  // an idle session keeps no rendering
        // Ran on versions still in flight: answered once they are durable.
        if let inFlight { return .afterInFlight(reply, inFlight, transition: transition) }
        return .done(reply, broadcast ? .broadcast : .none)
    }

    /// Whether `request` may run on versions of the session still in flight, and leave its own write in flight:
    /// not with an idempotency key (its answer is remembered once it is durable), not a restore (it reads the
    /// history the store has), not on a store other nodes write to (each change is compared with it), and not while
    /// a stream follows the session or another request waits for its writes (``SessionState/runsAhead``).
    private func mayRunAhead(_ request: ChangeRequest, _ state: SessionState) -> Bool {
        guard request.key == nil, archive.shared == nil, state.runsAhead else { return false }
        if case .success(.restore) = request.change { return false }
        return true
    }

    /// Whether a copy is still the stored version, for an answer that has no write (whose compare-and-set would
    /// tell): nil when it is; otherwise how the attempt ends: a conflict when another node moved the session on or
    /// removed it (the copy catches up, and the change runs again or is answered as not found), or the store's
    /// failure (the copy leaves memory: it was not compared).
    private func confirmCurrent(_ state: inout SessionState, render: (ChangeOutcome) -> SessionReply) -> Attempt? {
        guard let shared = archive.shared else { return nil }
        do {
            guard case .unchanged = try shared.session(state.id, unlessAt: state.announced, reply: nil) else {
                return .conflict
            }
            return nil
        } catch {
            state.ended = true
            let incident = health.failed(error, during: "change", session: state.id)
            return .done(render(.refused(.store(incident))), .evict)
        }
    }

    /// The answer to a request refused before it ran, remembered under its key like every answer (in memory only: a
    /// refusal is not stored).
    private func refuse(
        _ refusal: ChangeRefusal, _ request: ChangeRequest, _ state: inout SessionState, time: Double,
        render: (ChangeOutcome) -> SessionReply
    ) -> SessionReply {
        let reply = render(.refused(refusal))
        state.refusals.add(
            reply, request: request.body, source: try? request.change.get().source, version: state.engine.version,
            time: time)
        if let key = request.key {
            state.replies.store(
                .init(fingerprint: request.fingerprint, reply: reply, rebuild: nil, time: time), for: key)
        }
        return reply
    }

    /// What rebuilds the answer to a request that ended so (answered `reply`): its version and result for a change
    /// answered 200, its version and error for a redirect that committed; nil for any other answer (a refusal, which
    /// applied nothing).
    private static func rebuild(_ ended: ChangeOutcome, _ reply: SessionReply) -> ReplyRebuild? {
        switch ended {
        case .committed(let result, let snapshot), .unchanged(let result, let snapshot):
            return reply.status == 200 ? ReplyRebuild(version: snapshot.version, ending: .changed(result: result)) : nil
        case .redirected(let error, let snapshot):
            return ReplyRebuild(version: snapshot.version, ending: .redirected(error))
        default: return nil
        }
    }

    /// The outcome that answers as `rebuild` says, on the session as its version left it.
    private static func rebuilt(_ rebuild: ReplyRebuild, _ snapshot: SessionSnapshot) -> ChangeOutcome {
        switch rebuild.ending {
        case .changed(let result): .rebuilt(.committed(result: result, snapshot))
        case .redirected(let error): .rebuilt(.redirected(error, snapshot))
        }
    }

    /// A retry under `key` whose first answer is kept only as what rebuilds it: the session as the answer's version
    /// left it (the current state, or that version's restore document read back from the store), answered as the
    /// change was. Refused when the store no longer keeps the version: the request is never applied again.
    private func replay(_ key: String, _ rebuild: ReplyRebuild, _ state: SessionState, app: String) -> ChangeOutcome {
        let version = rebuild.version
        if version == state.engine.version { return Self.rebuilt(rebuild, state.snapshot) }
        let restore: [UInt8]?
        do {
            restore = try restoreDocument(of: state.id, at: version)
        } catch {
            return .refused(error)
        }
        guard let restore, let engine = try? engine(of: state.id, app: app, from: restore)
        else { return .refused(.replayUnavailable(key: key, version: version)) }
        let documents = DocumentCache(
            session: state.id, maxBytes: configuration.maxDocumentBytes, keepsRestoreDocuments: false)
        return Self.rebuilt(rebuild, SessionSnapshot(session: state.id, engine: engine, documents: documents))
    }

    /// The outcome of a change that returned `result` (or threw), having made versions when `committed`.
    private func outcome(
        of result: Result<[String: JSONValue], any Error>, committed: Bool, _ snapshot: SessionSnapshot
    ) -> ChangeOutcome {
        switch result {
        case .success(let members):
            committed ? .committed(result: members, snapshot) : .unchanged(result: members, snapshot)
        case .failure(let error as NavigationError) where error.code == NavigationError.redirectedCode:
            .redirected(error, snapshot)
        case .failure(let error): .refused(ChangeRefusal(error))
        }
    }

    /// Runs `change` on `engine` and returns the members of the answer's `result`.
    func apply(
        _ change: SessionChange, to engine: NavigationEngine, session id: String, app: String
    ) throws -> [String: JSONValue] {
        switch change {
        case .transition(let coordinator, let steps):
            let end = try engine.perform(steps, from: coordinator)
            return [
                "coordinator": .string(end.description), "type": .string(engine.coordinatorType(of: end) ?? ""),
            ]
        case .event(let from, let event):
            guard let sender = from ?? engine.visibleItem?.description else {
                throw ChangeRefusal.malformed("missing member 'from'")
            }
            let handler = try engine.send(event, from: sender)
            return [
                "handledBy": .string(handler.description), "type": .string(engine.coordinatorType(of: handler) ?? ""),
            ]
        case .deepLink(let url):
            let outcome = try engine.open(url)
            return ["deepLink": .string(outcome == .opened ? "opened" : "pending")]
        case .restore(let version):
            let current = engine.version
            guard version <= current else { throw ChangeRefusal.unknownVersion(version, current: current) }
            let saved: [UInt8]
            if version == current {
                saved = try engine.restoreDocument()
            } else {
                guard let found = try restoreDocument(of: id, at: version) else {
                    throw ChangeRefusal.versionNotKept(version)
                }
                saved = found
            }
            do {
                try engine.restore(to: try documentForRestore(saved, running: engine.app))
            } catch let error as NavigationError
                where error.category != .forbidden && error.code != NavigationError.redirectedCode
            {
                // A guard's refusal (`restoreGuarded`), or a redirect met by a result handler, is not an
                // incompatible document: it is answered as it is.
                counters.countIncompatible()
                throw ChangeRefusal.incompatible(error.message)
            }
            return ["restoredFrom": .number(Double(version))]
        }
    }
}
