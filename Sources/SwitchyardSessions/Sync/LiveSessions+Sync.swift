import Switchyard

/// Keeping this node's copies of sessions current when other nodes write to the same archive
/// (``SharedSessionArchive``): a check before a session is served (for a change without a key, only when a notice
/// said it moved on), a catch-up after a write conflict, and the notices and reconciles that keep event streams live.
extension LiveSessions {
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
        /// The store could not be read (a copy holding a change that was not stored has ended: evict it).
        case failed(ArchiveError)
    }

    /// Versions streamed one by one when a copy catches up with several; past this, subscribers get the latest.
    static let replayLimit = 100

    /// Before serving a session held in memory: with a shared archive, one read that says whether another node
    /// moved it on (and then brings the stored session, which the copy takes: true). A session no longer stored
    /// leaves memory.
    /// `key`: the request's idempotency key; the answer stored under it (on another node) comes with the read.
    /// `known`: the stored version a notice gave, if any; a copy at it or later is not read.
    @discardableResult
    package func checkCurrent(_ session: Session, key: String? = nil, known: Int? = nil) throws(LookupFailure) -> Bool {
        guard archive.shared != nil else { return false }
        let outcome = session.catchingUp { state in
            catchUp(&state, app: session.app, known: known, check: true, key: key)
        }
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
            throw .store(health.failed(error, during: "catch up", session: session.id))
        }
    }

    /// Brings a copy (under its lock) to the stored version: unless `known` (the stored version, from a notice or
    /// a reconcile) says it is current, reads the stored session (with `check`, only if it moved on), streams the
    /// versions the subscribers have not seen, and takes the stored state. Without either, the stored state is
    /// taken whatever its version: after a change here failed to store on a conflict, the copy's engine holds
    /// that change.
    func catchUp(
        _ state: inout SessionState, app: String, known: Int? = nil, check: Bool = false, key: String? = nil
    ) -> CatchUp {
        let intact = state.engine.version == state.announced
        if let known, known <= state.announced, intact { return .current }
        let stored: StoredSession
        do {
            let read: StoredSessionRead
            if check, intact, let shared = archive.shared {
                // A key this copy does not know may be one another node answered without a new version.
                let unknown = key.flatMap { state.replies[$0] == nil ? $0 : nil }
                read = try shared.session(state.id, unlessAt: state.announced, reply: unknown)
            } else {
                read = try archive.session(state.id).map { .changed($0) } ?? .absent
            }
            switch read {
            case .absent:
                state.ended = true
                return .removed
            case .unchanged(let reply):
                if let reply { state.remember(reply, time: configuration.now()) }
                return .current
            case .changed(let found):
                stored = found
            }
        } catch {
            // A copy holding a change that was not stored must not be served: it leaves memory (the caller evicts).
            if !intact { state.ended = true }
            return .failed(error)
        }
        let seen = state.announced
        if !state.subscribers.isEmpty {
            for (version, document) in documents(of: state.id, app: app, after: seen, before: stored.version) {
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
            if !intact { state.ended = true }
            return .failed(.unreadable("\(error)"))
        }
        engine.screenRenderings = renderings.makeRenderings()
        state.adopt(engine, stored: stored, configuration: configuration, deltas: archive.storesDeltas)
        counters.countCaughtUp()
        if stored.version > seen, !state.subscribers.isEmpty {
            state.send(version: stored.version, state.document(keep: true))
        }
        return .caughtUp
    }

    /// The state documents of the stored versions after `seen` and before `end` (the last ``replayLimit`` of
    /// them), rendered from their restore documents: what a stream that saw `seen` missed. Versions the store no
    /// longer keeps (or cannot read now) are left out. None when they would pass
    /// ``SessionConfiguration/maxReplayBytes``: a subscriber that missed that much gets the current state instead, as
    /// one that falls behind live does.
    package func documents(
        of id: String, app: String, after seen: Int, before end: Int
    ) -> [(version: Int, document: [UInt8])] {
        guard seen < end - 1 else { return [] }
        var documents: [(version: Int, document: [UInt8])] = []
        var bytes = 0
        for version in max(seen + 1, end - Self.replayLimit)..<end {
            guard let saved = try? archive.state(of: id, at: version),
                let engine = try? engine(of: id, app: app, from: saved)
            else { continue }
            let document = engine.stateDocument(session: id)
            bytes += document.count
            guard bytes <= configuration.maxReplayBytes else { return [] }
            documents.append((version, document))
        }
        return documents
    }

    /// What a shared archive told this node: a change elsewhere reaches the session's streams here (a copy nobody
    /// follows is left as it is, noting the version heard of: it is checked when next served); a removal ends the
    /// copy; after a disconnection, every followed session is reconciled.
    func handle(_ notice: ArchiveNotice) {
        switch notice {
        case .changed(let id, let version):
            guard let session = live(id) else { return }
            session.hear(version)
            guard session.currentActivity.subscribers > 0 else { return }
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
    package func reconcile() {
        guard let archive = archive.shared else { return }
        let followed = followedSessions()
        guard !followed.isEmpty else { return }
        let stored: [String: Int]
        do {
            stored = try archive.versions(of: followed.map(\.id))
        } catch {
            health.failed(error, during: "reconcile")
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
