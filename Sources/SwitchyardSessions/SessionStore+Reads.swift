import Switchyard

/// Reads of a session beyond its current state: earlier versions, the history, and dry runs of changes.
extension SessionStore {
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
        return try restoredEngine(of: session, from: state).stateDocument(session: session.id)
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
                let result = try documents.checkingCommits(of: scratch) {
                    Result {
                        try apply(change, to: scratch, session: session.id, app: session.app, counting: false)
                    }
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

/// What a change would do (``SessionStore/preview(_:_:)``).
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

extension SessionStore {
    /// The app's deep link that shows what `session` has on screen now (reverse routing, see
    /// `NavigationEngine.deepLinkToVisibleScreen(copy:)`), tried on copies of the session: nothing is changed.
    package func visibleLink(of session: Session) throws(ChangeRefusal) -> VisibleLink {
        let outcome = session.withState { state -> Result<VisibleLink, ChangeRefusal> in
            if state.ended { return .failure(.sessionMoved) }
            let engine = state.engine
            do {
                let document = try engine.restoreDocument()
                let link = engine.deepLinkToVisibleScreen { try restoredEngine(of: session, from: document) }
                return .success(VisibleLink(version: engine.version, path: engine.visiblePath, link: link))
            } catch {
                return .failure(ChangeRefusal(error))
            }
        }
        return try outcome.get()
    }
}
