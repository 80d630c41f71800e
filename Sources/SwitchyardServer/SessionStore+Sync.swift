import Switchyard

/// Keeping this node's copies of sessions current when other nodes write to the same archive
/// (``SharedSessionArchive``): a check before a session is served, a catch-up after a write conflict, and the
/// notices and reconciles that keep event streams live.
extension SessionStore {
    /// What a catch-up found.
    enum CatchUp {
        /// The copy is current.
        case current
        /// The copy took the stored version (and streamed it).
        case caughtUp
        /// The session is no longer stored.
        case removed
        /// The stored version cannot be restored by the app as it runs now.
        case incompatible(String)
        /// The store could not be read.
        case failed(ArchiveError)
    }

    /// Versions streamed one by one when a copy catches up with several; past this, subscribers get the latest.
    static let replayLimit = 100

    /// Before serving a session held in memory: with a shared archive, one read that says whether another node
    /// moved it on (and then brings the stored session, which the copy takes: true). A session no longer stored
    /// leaves memory.
    @discardableResult
    func checkCurrent(_ session: Session) throws(LookupFailure) -> Bool {
        guard configuration.archive is any SharedSessionArchive else { return false }
        let outcome = session.catchingUp { state in catchUp(&state, app: session.app, check: true) }
        try settle(outcome, of: session)
        if case .caughtUp = outcome { return true }
        return false
    }

    /// Acts on a catch-up's outcome (after the session's lock is released): a session gone or incompatible leaves
    /// memory.
    func settle(_ outcome: CatchUp, of session: Session) throws(LookupFailure) {
        switch outcome {
        case .current, .caughtUp: return
        case .removed:
            evict(session)
            throw .unknown
        case .incompatible(let reason):
            evict(session)
            throw .incompatible(reason)
        case .failed(let error):
            metrics.countStoreFailure()
            throw .store(error)
        }
    }

    /// Brings a copy (under its lock) to the stored version: unless `known` (the stored version, from a notice or
    /// a reconcile) says it is current, reads the stored session (with `check`, only if it moved on), streams the
    /// versions the subscribers have not seen, and takes the stored state. Without either, the stored state is
    /// taken whatever its version: after a change here failed to store on a conflict, the copy's engine holds
    /// that change.
    func catchUp(_ state: inout SessionState, app: String, known: Int? = nil, check: Bool = false) -> CatchUp {
        guard let archive = configuration.archive else { return .current }
        let intact = state.engine.version == state.announced
        if let known, known <= state.announced, intact { return .current }
        let stored: StoredSession
        do {
            let read: StoredSessionRead
            if check, intact, let shared = archive as? any SharedSessionArchive {
                read = try shared.session(state.id, unlessAt: state.announced)
            } else {
                read = try archive.session(state.id).map { .changed($0) } ?? .absent
            }
            switch read {
            case .absent:
                state.ended = true
                return .removed
            case .unchanged:
                return .current
            case .changed(let found):
                stored = found
            }
        } catch {
            return .failed(error)
        }
        let seen = state.announced
        if !state.subscribers.isEmpty, stored.version > seen + 1 {
            for version in max(seen + 1, stored.version - Self.replayLimit)..<stored.version {
                guard let document = try? pastDocument(of: state.id, app: app, at: version, in: archive) else {
                    continue
                }
                state.send(version: version, document)
            }
        }
        let engine: NavigationEngine
        do {
            engine = try self.engine(of: state.id, app: app, from: stored.state)
        } catch .incompatible(let reason) {
            state.ended = true
            return .incompatible(reason)
        } catch {
            return .failed(.unreadable("\(error)"))
        }
        state.adopt(engine, replies: stored.replies, configuration: configuration)
        metrics.countCaughtUp()
        if stored.version > seen, !state.subscribers.isEmpty {
            state.send(version: stored.version, state.document(keep: true))
        }
        return .caughtUp
    }

    /// The state document of a stored version, rendered from its restore document; nil when it is not kept.
    private func pastDocument(
        of id: String, app: String, at version: Int, in archive: any SessionArchive
    ) throws -> [UInt8]? {
        guard let saved = try archive.state(of: id, at: version) else { return nil }
        return try engine(of: id, app: app, from: saved).stateDocument(session: id)
    }

    /// What a shared archive told this node: a change elsewhere reaches the session's streams here (a copy nobody
    /// follows is left as it is: it is checked when next served); a removal ends the copy; after a
    /// disconnection, every followed session is reconciled.
    func handle(_ notice: ArchiveNotice) {
        switch notice {
        case .changed(let id, let version):
            guard let session = live(id), session.currentActivity.subscribers > 0 else { return }
            let outcome = session.catchingUp { state in catchUp(&state, app: session.app, known: version) }
            try? settle(outcome, of: session)
        case .removed(let id):
            if let session = live(id) { evict(session) }
        case .resumed:
            reconcile()
        }
    }

    /// Compares every followed session with its stored version, in one read, and catches up those behind (or
    /// ends those no longer stored): a notice lost while the archive was disconnected is made up here.
    func reconcile() {
        guard let archive = configuration.archive as? any SharedSessionArchive else { return }
        let followed = followedSessions()
        guard !followed.isEmpty else { return }
        let stored: [String: Int]
        do {
            stored = try archive.versions(of: followed.map(\.id))
        } catch {
            return  // the next reconcile tries again
        }
        for session in followed {
            guard let version = stored[session.id] else {
                evict(session)
                continue
            }
            let outcome = session.catchingUp { state in catchUp(&state, app: session.app, known: version) }
            try? settle(outcome, of: session)
        }
    }
}
