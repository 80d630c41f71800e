import Switchyard

/// Outcomes: of an engine's run, and of a retry rebuilt from what its key keeps.
extension ChangePipeline {
    /// What rebuilds the answer to a request that ended so (answered `reply`): its version and result for a change
    /// answered 200, its version and error for a redirect that committed; nil for any other answer (a refusal, which
    /// applied nothing).
    static func rebuild(_ ended: ChangeOutcome, _ reply: SessionReply) -> ReplyRebuild? {
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
    func replay(_ key: String, _ rebuild: ReplyRebuild, _ state: SessionState, app: String) -> ChangeOutcome {
        let version = rebuild.version
        if version == state.engine.version { return Self.rebuilt(rebuild, state.snapshot) }
        let restore: [UInt8]?
        do {
            restore = try sessions.restoreDocument(of: state.id, at: version)
        } catch {
            return .refused(error)
        }
        guard let restore, let engine = try? sessions.engine(of: state.id, app: app, from: restore)
        else { return .refused(.replayUnavailable(key: key, version: version)) }
        let documents = DocumentCache(
            session: state.id, maxBytes: sessions.configuration.maxDocumentBytes, keepsRestoreDocuments: false)
        return Self.rebuilt(rebuild, SessionSnapshot(session: state.id, engine: engine, documents: documents))
    }

    /// The outcome of a change that ended so, having made versions when `committed`.
    static func outcome(
        of ending: CommitRun<[String: JSONValue]>.Ending, committed: Bool, _ snapshot: SessionSnapshot
    ) -> ChangeOutcome {
        switch ending {
        case .returned(let members):
            committed ? .committed(result: members, snapshot) : .unchanged(result: members, snapshot)
        case .redirected(let error): .redirected(error, snapshot)
        case .failed(let error): .refused(ChangeRefusal(error))
        }
    }
}
