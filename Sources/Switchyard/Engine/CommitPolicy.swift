/// What every commit of an engine must satisfy, and what its owner wants made of each
/// (``NavigationEngine/commitPolicy``).
///
/// With a policy, the last step of every transaction that changed the tree renders the new version's state
/// document (and, when asked, its restore document), checks them against the limits, and hands them back with the
/// commit (``Commit/documents``): a server stores and answers with what the check rendered, without calling back
/// into the engine's owner or rendering again. A commit over a limit is rolled back whole (tree, version, pending
/// deep link, app data registered with its undo) and refused with a ``CommitRefusal``.
public struct CommitPolicy: Sendable, Hashable {
    /// The session id written in the state documents (nil: none).
    public var session: String?
    /// The largest state document (and restore document, when made) a commit may make, in bytes.
    public var maxDocumentBytes: Int
    /// Whether each commit's restore document is made (and checked) for the owner to store.
    public var makesRestoreDocuments: Bool

    /// A policy: documents of session `session` of at most `maxDocumentBytes`, with restore documents unless
    /// `makesRestoreDocuments` is false (a scratch copy nobody stores).
    public init(session: String? = nil, maxDocumentBytes: Int = .max, makesRestoreDocuments: Bool = true) {
        self.session = session
        self.maxDocumentBytes = maxDocumentBytes
        self.makesRestoreDocuments = makesRestoreDocuments
    }
}

/// What a commit's check rendered (``CommitPolicy``): the version's state document, and its restore document when
/// the policy makes them.
public struct CommitDocuments: Sendable, Hashable {
    /// The state document, as ``NavigationEngine/stateDocument(session:result:)`` writes it.
    public let state: [UInt8]
    /// The restore document (``NavigationEngine/restoreDocument()``), when the policy makes them.
    public let restore: [UInt8]?
}

/// Why a commit was refused by its ``CommitPolicy``: nothing of it was applied.
public enum CommitRefusal: Error, Sendable, Hashable {
    /// The state (or restore) document would be `bytes` long, over `limit`.
    case documentTooLarge(bytes: Int, limit: Int)
    /// A screen the version shows could not be rendered within its budget (why).
    case renderingBudgetExceeded(String)
    /// A screen the version shows has a typed action naming a route of a coordinator that does not hold it (why):
    /// the app's mistake (``ScreenRenderingFailure/Cause/misplacedAction``).
    case misplacedAction(String)
}

extension NavigationEngine {
    /// The documents of the current version when they are within `policy`'s limits: every screen rendered in full
    /// and no document over the size limit (else a ``CommitRefusal``); an error of the app's own data when it cannot
    /// be saved. What every commit is checked with; an owner checks a new engine's first version with it too.
    public func checkedDocuments(under policy: CommitPolicy) throws -> CommitDocuments {
        let state: [UInt8]
        switch checkedStateDocument(session: policy.session) {
        case .failure(let failure) where failure.cause == .misplacedAction:
            throw CommitRefusal.misplacedAction(failure.reason)
        case .failure(let failure): throw CommitRefusal.renderingBudgetExceeded(failure.reason)
        case .success(let document) where document.count > policy.maxDocumentBytes:
            throw CommitRefusal.documentTooLarge(bytes: document.count, limit: policy.maxDocumentBytes)
        case .success(let document): state = document
        }
        guard policy.makesRestoreDocuments else { return CommitDocuments(state: state, restore: nil) }
        // The stored form has the same limit: it holds data the screens need not show (an app's own data), which
        // must not grow without bound either.
        let restore = try restoreDocument()
        guard restore.count <= policy.maxDocumentBytes else {
            throw CommitRefusal.documentTooLarge(bytes: restore.count, limit: policy.maxDocumentBytes)
        }
        return CommitDocuments(state: state, restore: restore)
    }
}
