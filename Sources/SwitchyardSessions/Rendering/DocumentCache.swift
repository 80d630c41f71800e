import Switchyard

/// The rendered state document of a session's current version, and the commit policy its changes run under.
///
/// A change's commits are checked under the policy (``committing(_:_:)``), which renders each version's documents
/// once: the answer, the broadcast and later reads reuse the last state document, the store write the restore
/// documents (``Commit/documents``). Reads keep their rendering until the next change (app code runs only inside
/// those). After a change's answer the rendering is dropped unless a stream follows the session: an idle session
/// holds no rendered copy.
final class DocumentCache {
    private(set) var bytes: [UInt8]?
    /// The engine's kept screen renderings, when a document was written since they were last taken
    /// (``takeWrittenRenderings()``): what the rendering budget reads once the session's lock is released.
    private var writtenRenderings: ScreenRenderings?
    private let session: String
    /// What every commit of a change must satisfy, and what is made of it.
    let policy: CommitPolicy

    /// `keepsRestoreDocuments`: false for a scratch copy whose commits are never stored (a preview).
    init(session: String, maxBytes: Int, keepsRestoreDocuments: Bool = true) {
        self.session = session
        policy = CommitPolicy(
            session: session, maxDocumentBytes: maxBytes, makesRestoreDocuments: keepsRestoreDocuments)
    }

    /// Runs `body`, a change of `engine`, under the policy: a commit whose documents would pass its limits is
    /// refused (``ChangeRefusal/documentTooLarge(bytes:limit:)``, ``ChangeRefusal/renderingBudgetExceeded(_:)``)
    /// and rolled back; the last commit's state document is kept, unless lifecycle hooks ran after a commit (they
    /// may change what screens show) or the change did not return. Returns how `body` ended, and the commits.
    func committing<Value>(_ engine: NavigationEngine, _ body: () throws -> Value) -> CommitRun<Value> {
        let run = engine.collectingCommits(under: policy, body)
        wrote(engine)
        let returned = if case .returned = run.ending { true } else { false }
        let fresh = returned && !run.commits.contains(where: \.ranLifecycleHooks)
        bytes = fresh ? run.commits.last?.documents?.state : nil
        return run
    }

    /// Checks the first document of a new session (`engine` as made) as a commit is checked, keeping its rendering
    /// for the creation's answer.
    func admitFirst(_ engine: NavigationEngine) -> Result<Void, ChangeRefusal> {
        var first = policy
        first.makesRestoreDocuments = false  // the creation stores its own
        do {
            defer { wrote(engine) }
            bytes = try engine.checkedDocuments(under: first).state
            return .success(())
        } catch {
            return .failure(ChangeRefusal(error))
        }
    }

    /// The document of `engine`'s current version, rendered now unless it is kept; `keep` keeps a new rendering.
    /// With `result`, its members are added (`"result":{…}`), for a change's answer.
    func document(of engine: NavigationEngine, result: [String: JSONValue]? = nil, keep: Bool = false) -> [UInt8] {
        let base: [UInt8]
        if let bytes {
            base = bytes
        } else {
            base = engine.stateDocument(session: session)
            wrote(engine)
            if keep { bytes = base }
        }
        guard let result else { return base }
        var bytes = base
        bytes.removeLast()  // the closing brace
        bytes.append(contentsOf: ",\"result\":".utf8)
        bytes.append(contentsOf: JSONValue.object(result).serialized())
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// The renderings documents were written into since the last call (nil: none), for the rendering budget.
    func takeWrittenRenderings() -> ScreenRenderings? {
        defer { writtenRenderings = nil }
        return writtenRenderings
    }

    /// A document of `engine` was written (or its renderings dropped): the budget is to read them.
    private func wrote(_ engine: NavigationEngine) {
        if let renderings = engine.screenRenderings { writtenRenderings = renderings }
    }

    /// Forgets the rendering (after lifecycle hooks ran, or when nobody follows the session).
    func forget() {
        bytes = nil
    }

    /// Before a change runs app code: forgets the rendering.
    func beginChange() {
        bytes = nil
    }
}
