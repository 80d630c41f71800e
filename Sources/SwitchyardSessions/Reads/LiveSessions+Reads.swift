import Switchyard

/// Reads of a session beyond its current state: earlier versions, the history, and dry runs of changes.
extension LiveSessions {
    /// The restore document of version `version` of session `id` from the store; nil when it is not kept.
    func restoreDocument(of id: String, at version: Int) throws(ChangeRefusal) -> [UInt8]? {
        do {
            return try archive.state(of: id, at: version)
        } catch {
            throw .store(health.failed(error, during: "read a version", session: id))
        }
    }

    /// The state document of `version` of `session`: the current one, or an earlier one rendered now from its
    /// restore document (screens show the app data of that version) while the store keeps it.
    package func document(of session: Session, at version: Int) throws(ChangeRefusal) -> [UInt8] {
        let current: (version: Int, document: [UInt8])
        do {
            current = try session.read { ($0.version, version == $0.version ? $0.document(keep: true) : []) }
        } catch {
            throw ChangeRefusal(error)
        }
        if version == current.version { return current.document }
        guard version < current.version else { throw .unknownVersion(version, current: current.version) }
        guard let state = try restoreDocument(of: session.id, at: version) else { throw .versionNotKept(version) }
        do {
            return try restoredEngine(of: session, from: state).stateDocument(session: session.id)
        } catch .incompatible(let reason) {
            // The app version that wrote it is no longer served: shown as a restore would bring it back, migrated
            // to the version the session runs now.
            guard let engine = try? migratedEngine(of: session, from: state) else { throw .incompatible(reason) }
            return engine.stateDocument(session: session.id)
        }
    }

    /// An engine of the app version `session` runs, made from a restore document an earlier version of its app
    /// wrote, migrated as a restore migrates it (``documentForRestore(_:running:)``).
    private func migratedEngine(of session: Session, from state: [UInt8]) throws -> NavigationEngine {
        let running = try session.read { $0.app }
        guard let running, let app = served.withLock({ $0.apps.app(running) }) else {
            throw NavigationError.restoreFailed("the session's app version is not served")
        }
        return try app.restoreEngine(from: try documentForRestore(state, running: running))
    }

    /// An engine of the session's app built from a restore document; one that no longer fits is
    /// ``ChangeRefusal/incompatible(_:)``.
    func restoredEngine(of session: Session, from state: [UInt8]) throws(ChangeRefusal) -> NavigationEngine {
        do {
            return try engine(of: session.id, app: session.app, from: state)
        } catch .incompatible(let reason) {
            throw .incompatible(reason)
        } catch {
            throw .incompatible("\(error)")
        }
    }

    /// The session's version and up to `limit` entries of its history, oldest first: those after version `after`,
    /// or (nil) the latest.
    package func history(
        of session: Session, after: Int?, limit: Int
    ) throws(ChangeRefusal) -> (version: Int, entries: [HistoryEntry]) {
        let version: Int
        do {
            version = try session.read { $0.version }
        } catch {
            throw ChangeRefusal(error)
        }
        let stored: [StoredChange]
        do {
            stored = try archive.history(of: session.id, after: after, limit: limit)
        } catch {
            throw .store(health.failed(error, during: "read history", session: session.id))
        }
        // Read after the version: a change stored meanwhile may show, none can be missing.
        return (version, stored.map(HistoryEntry.init).filter { $0.version <= version })
    }

    /// What `request` would do, without doing it: the change runs on a copy of the session (restored from its
    /// restore document, so the app's own code runs on copies of its coordinators). Nothing is committed or
    /// stored, no version, history entry or stream event is made, and the idempotency key is ignored.
    package func preview(_ session: Session, _ request: ChangeRequest) throws(ChangeRefusal) -> ChangePreview {
        let outcome = session.withState { state -> Result<ChangePreview, ChangeRefusal> in
            if state.ended { return .failure(.sessionMoved) }
            let change: SessionChange
            switch state.admit(request) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let admitted): change = admitted
            }
            let current = state.document(keep: true)
            do {
                let scratch = try restoredEngine(of: session, from: try state.engine.restoreDocument())
                let documents = DocumentCache(
                    session: session.id, maxBytes: configuration.maxDocumentBytes, keepsRestoreDocuments: false)
                let result = try documents.committing(scratch) {
                    try apply(change, to: scratch, session: session.id, app: session.app)
                }.get()
                return .success(
                    ChangePreview(
                        session: session.id, version: state.engine.version, current: current,
                        after: documents.document(of: scratch), result: result))
            } catch {
                return .failure(ChangeRefusal(error))
            }
        }
        return try outcome.get()
    }
}

/// What a change would do (``LiveSessions/preview(_:_:)``).
package struct ChangePreview: Sendable {
    package let session: String
    /// The version the session is at (and stays at).
    package let version: Int
    /// The state document now.
    package let current: [UInt8]
    /// The state document the change would make.
    package let after: [UInt8]
    /// The change's `result` members.
    package let result: [String: JSONValue]
}

extension LiveSessions {
    /// The app's deep link that shows what `session` has on screen now (reverse routing, see
    /// `NavigationEngine.deepLinkToVisibleScreen(copy:)`), tried on copies of the session: nothing is changed. The
    /// copies are made and tried outside the session's lock (changes go on meanwhile), and the answer is kept for its
    /// version: every client asking about the same version gets it without trying again.
    package func visibleLink(of session: Session) throws(ChangeRefusal) -> VisibleLink {
        let taken = session.withState { state -> Result<(VisibleLink?, Int, [String], [UInt8]), ChangeRefusal> in
            if state.ended { return .failure(.sessionMoved) }
            let engine = state.engine
            if let known = state.visibleLink, known.version == engine.version {
                return .success((known, engine.version, [], []))
            }
            do {
                return .success((nil, engine.version, engine.visiblePath, try engine.restoreDocument()))
            } catch {
                return .failure(ChangeRefusal(error))
            }
        }
        let (known, version, path, document) = try taken.get()
        if let known { return known }
        let copy = try restoredEngine(of: session, from: document)
        let link = copy.deepLinkToVisibleScreen { try restoredEngine(of: session, from: document) }
        let found = VisibleLink(version: version, path: path, link: link)
        session.withState { state in
            if state.engine.version == version { state.visibleLink = found }
        }
        return found
    }
}

extension LiveSessions {
    /// The latest changes `session` refused on this node (``RecentRefusals``), oldest first, with its version.
    package func refusals(
        of session: Session
    ) throws(ChangeRefusal) -> (version: Int, refusals: [RecentRefusals.Refusal]) {
        let found = session.withState { state in state.ended ? nil : (state.engine.version, state.refusals.entries) }
        guard let found else { throw .sessionMoved }
        return found
    }

    /// The JSON Patch that version `version` of `session` made: from the state document of the version before to
    /// its own, both rendered now from the store's restore documents (as ``document(of:at:)`` renders them).
    /// Version 0, the session's creation, is one `add` of the whole document.
    package func patch(of session: Session, at version: Int) throws(ChangeRefusal) -> JSONValue {
        let after = try document(of: session, at: version)
        guard let new = try? JSONValue(parsing: after) else {
            throw .failed("version \(version) does not render as JSON")
        }
        guard version > 0 else { return [["op": "add", "path": "", "value": new]] }
        guard let old = try? JSONValue(parsing: try document(of: session, at: version - 1)) else {
            throw .failed("version \(version - 1) does not render as JSON")
        }
        return JSONPatch.diff(from: old, to: new)
    }
}
