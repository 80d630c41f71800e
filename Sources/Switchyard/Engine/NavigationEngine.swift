import Synchronization

/// One navigation state machine: a tree of coordinators, the routes they took, and a version.
///
/// The engine owns the coordinators in its tree. Every operation runs in a transaction: it commits fully (the version
/// grows by one if anything changed) or throws a ``NavigationError`` and leaves the tree and version as they were.
/// Operations called inside ``transaction(_:)`` (or inside an event handler or deep-link handler) join one
/// transaction, so a chain of steps is atomic. Lifecycle hooks run after commit.
///
/// The engine is not thread-safe: use one engine from one thread at a time (the server serializes each session).
///
/// ```swift
/// let engine = try NavigationEngine(root: AppCoordinator())
/// try engine.transaction {
///     try app.hasRoot(\.authenticated)?.focusFirst(\.todos).child.popToRoot().route(to: \.todo, id)
/// }
/// print(engine.visiblePath)  // ["authenticated", "todos", "list", "todo"]
/// ```
public final class NavigationEngine {
    var storage = EngineStorage()
    var journal: Journal?
    /// How many coordinators are being attached, one inside the other (a coordinator whose initial route makes
    /// another): bounded by ``maxAttachDepth``, so that a declaration that starts in a circle is refused, not a crash.
    var attachDepth = 0
    /// The deepest chain of coordinators one attach may make.
    static let maxAttachDepth = 64
    let deepLinks: AnyDeepLinkRouter?
    // The one-byte flags are declared together: a class lays its fields out in order, and an engine is kept for
    // every session.
    private var retryingPendingLink = false
    /// Set while the pending route is being entered (so that its own commit does not enter it again).
    var resumingRoute = false
    /// Whether route guards are asked when entries are made (not while a tree is rebuilt from a document).
    var checksGuards = true
    /// Set when the last transaction's commit check refused it (so a pending deep link stays pending).
    var refusedByCommitCheck = false
    /// Why the transactions committing now happen: a direct call, or a pending deep link or route that another
    /// change made possible (set and put back by whoever retries them).
    var commitCause = Commit.Cause.direct
    /// The guarded route the running transaction is a guard's redirect for (set while a redirect is followed).
    var commitRedirect: PendingRoute? {
        get { boxedCommitRedirect?.value }
        set { boxedCommitRedirect = newValue.map(Indirect.value) }
    }
    /// Boxed: set only while a redirect is followed, 72 bytes inline.
    private var boxedCommitRedirect: Indirect<PendingRoute>?
    /// The commits made inside ``collectingCommits(_:)``; nil outside it (nothing is kept).
    private var collectedCommits: [Commit]?
    /// The size of the last state document written (not state): the next one starts with room for it, instead of
    /// growing its buffer (and copying it) several times.
    var documentSizeHint = 4096

    /// The persistent coordinators' data as the last restore document wrote it (``WrittenData``), by node.
    var writtenData: [NodeID: WrittenData] = [:]

    /// Where state documents keep their screens' renderings for the next document; nil (the default): every
    /// document renders and writes every screen. See ``ScreenRenderings``.
    public var screenRenderings: ScreenRenderings?
    /// Which kept renderings this engine may reuse: those written with this number. Unique across engines, and
    /// taken anew whenever item ids may be given again (``forgetRenderings()``).
    var renderingEpoch = NavigationEngine.newRenderingEpoch()
    private static let renderingEpochs = Atomic<Int>(0)

    /// What every commit must satisfy, and what is made of it (nil, the default: nothing is checked or made).
    ///
    /// As the last step of every transaction that changed the tree, with the new version in place, its documents
    /// are rendered and checked (``checkedDocuments(under:)``) and handed back with the commit
    /// (``Commit/documents``, through ``collectingCommits(_:)``). A refusal rolls the whole transaction back (tree,
    /// version, pending deep link, app data registered to be undone) and is thrown to the caller. The
    /// server sets it to refuse a change whose documents would pass the session's limits, and to store and answer
    /// with what the check rendered.
    public var commitPolicy: CommitPolicy?
    /// The documents the running transaction's check made, for its commit.
    private var lastCheckedDocuments: CommitDocuments?

    /// The app and version that made the engine (``NavigationApp/makeEngine()``): named in its documents. Nil for
    /// an engine made directly.
    public internal(set) var app: AppVersion?

    /// The version of the tree: 0 at creation, +1 for every committed change.
    public var version: Int { storage.version }

    /// The root coordinator (it stays for the engine's life: switching roots changes what it shows).
    public let rootCoordinator: any Coordinatable

    /// A deep link waiting for a precondition (e.g. login), if any.
    public var pendingDeepLink: String? { storage.pendingDeepLink }

    /// A guarded route waiting for its guard to allow it (after it redirected), if any.
    public var pendingRoute: PendingRoute? { storage.pendingRoute }

    /// Creates an engine whose tree starts at `root`, with an optional deep-link router.
    public convenience init<Root: Coordinatable>(root: Root, deepLinks: DeepLinkRouter<Root>? = nil) throws {
        try self.init(erasedRoot: root, deepLinks: deepLinks.map(AnyDeepLinkRouter.init))
    }

    init(
        erasedRoot root: any Coordinatable, deepLinks: AnyDeepLinkRouter?, restoring snapshot: NodeSnapshot? = nil
    )
        throws
    {
        self.deepLinks = deepLinks
        rootCoordinator = root
        try transaction {
            // A tree read back from a store is rebuilt as it was acknowledged: guards were asked when it was made.
            // (Only while it is rebuilt: what hooks do after the commit is asked as usual.)
            checksGuards = snapshot == nil
            defer { checksGuards = true }
            storage.rootNode = try attach(root, parent: nil, host: nil, snapshot: snapshot)
            if let snapshot { try restoreData(from: snapshot) }
        }
        storage.version = 0
    }

    /// Runs `body` as one transaction: all operations inside commit together or not at all.
    ///
    /// Nested calls join the outer transaction. On a thrown error the tree, the version, the pending deep link and
    /// the pending route are restored and the error is rethrown. Results of items the body removed are handed to
    /// their openers before it commits (``RouteOutcome``). When a route guard redirects, the body is rolled back and
    /// the redirect commits instead; ``NavigationError/redirected(_:to:)`` is thrown then.
    @discardableResult
    public func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try transaction(followingRedirects: true, body)
    }

    /// ``transaction(_:)``; with `followingRedirects` false, a guard's redirect is not followed: the body is rolled
    /// back and the internal `GuardRedirect` is rethrown (for following a redirect, and entering the pending route).
    func transaction<Result>(followingRedirects: Bool, _ body: () throws -> Result) throws -> Result {
        if journal != nil { return try body() }
        refusedByCommitCheck = false
        let snapshot = storage
        journal = Journal()
        let result: Result
        do {
            result = try body()
            try deliverOutcomes()
        } catch let redirect as GuardRedirect where followingRedirects {
            rollBack(to: snapshot)
            try follow(redirect)
        } catch {
            rollBack(to: snapshot)
            throw error
        }
        let finished = journal ?? Journal()  // set above; the body cannot end it
        journal = nil
        if finished.changed {
            storage.version += 1
            if let commitPolicy {
                do {
                    lastCheckedDocuments = try checkedDocuments(under: commitPolicy)
                } catch {
                    storage = snapshot
                    forgetRenderings()  // the check rendered items whose ids will be given again
                    finished.undo.reversed().forEach { $0() }
                    refusedByCommitCheck = true
                    throw error
                }
            }
        }
        afterCommit(finished, cause: commitCause)
        return result
    }

    /// Makes every kept rendering unusable (item ids may be given again to other screens) and drops them.
    func forgetRenderings() {
        renderingEpoch = Self.newRenderingEpoch()
        screenRenderings?.removeAll()
    }

    private static func newRenderingEpoch() -> Int {
        renderingEpochs.add(1, ordering: .relaxed).newValue
    }

    /// Marks the running transaction as having changed the tree.
    func markChanged() {
        journal?.changed = true
    }

    /// Registers what undoes a change made outside the tree (a coordinator's own data) should the running
    /// transaction be rolled back, and marks the transaction as a change. Outside a transaction it does nothing.
    package func onRollback(_ undo: @escaping () -> Void) {
        journal?.undo.append(undo)
        journal?.changed = true
    }

    /// Puts the tree back as `snapshot` had it and undoes what the running transaction changed outside it.
    private func rollBack(to snapshot: EngineStorage) {
        storage = snapshot
        rollBackOutsideTheTree()
    }

    /// Ends the running transaction's journal, undoing what it changed outside the tree, newest first.
    private func rollBackOutsideTheTree() {
        let undo = journal?.undo ?? []
        journal = nil
        undo.reversed().forEach { $0() }
    }

    /// Runs `body` and returns how it ended (it returned, a guard redirected it, or it threw), with every change it
    /// committed, in order.
    ///
    /// This is how an owner learns what happened: one call can commit more than once (a change, then the pending
    /// deep link it made possible), and a body that throws may have committed before it threw. Outside this call
    /// the engine keeps no record of its commits.
    public func collectingCommits<Value>(_ body: () throws -> Value) -> CommitRun<Value> {
        let outer = collectedCommits
        collectedCommits = []
        defer { collectedCommits = outer.map { $0 + (collectedCommits ?? []) } }
        let ending = CommitRun<Value>.Ending(Result { try body() })
        return CommitRun(ending: ending, commits: collectedCommits ?? [])
    }

    /// ``collectingCommits(_:)`` with `policy` as the ``commitPolicy`` while `body` runs: each commit comes with
    /// the documents its check made, and one over the policy's limits is refused and rolled back.
    public func collectingCommits<Value>(under policy: CommitPolicy?, _ body: () throws -> Value) -> CommitRun<Value> {
        let outer = commitPolicy
        commitPolicy = policy
        defer { commitPolicy = outer }
        return collectingCommits(body)
    }

    private func afterCommit(_ finished: Journal, cause: Commit.Cause) {
        let redirected = commitRedirect
        commitRedirect = nil  // the commits the hooks below may make are not the redirect
        let documents = lastCheckedDocuments
        lastCheckedDocuments = nil
        if finished.changed, collectedCommits != nil {
            let started = finished.started.compactMap { id in
                storage.nodes[id].map { CoordinatorReference(id: id, type: $0.typeName) }
            }
            collectedCommits?.append(
                Commit(
                    version: storage.version, cause: cause, visiblePath: visiblePath, started: started,
                    finished: finished.finished.map(\.reference), redirected: redirected,
                    ranDismissHooks: !finished.dismissed.isEmpty, documents: documents))
        }
        for id in finished.started {
            storage.nodes[id]?.coordinator.onStart()
        }
        for (_, coordinator, parent) in finished.finished {
            coordinator.onFinish()
            parent?.childDidFinish(coordinator)
        }
        for callback in finished.dismissed {
            callback()
        }
        if finished.changed, !retryingPendingLink, storage.pendingDeepLink != nil {
            retryPendingDeepLink()
        }
        if finished.changed, !resumingRoute, storage.pendingRoute != nil {
            resumePendingRoute()
        }
    }

    private func retryPendingDeepLink() {
        guard let url = storage.pendingDeepLink, let deepLinks else { return }
        let cause = commitCause
        retryingPendingLink = true
        commitCause = .pendingDeepLink
        defer {
            retryingPendingLink = false
            commitCause = cause
        }
        do {
            try transaction {
                let opened = try deepLinks.open(url, root: rootCoordinator)
                guard opened else { throw DeepLinkStillPending() }
                storage.pendingDeepLink = nil
                markChanged()
            }
        } catch is DeepLinkStillPending {
            // Still waiting: nothing changed.
        } catch  where refusedByCommitCheck {
            // The owner refused the result (e.g. over a size limit): keep the link for a later change.
        } catch {
            // The link can no longer be opened (e.g. its target is gone): drop it rather than retry forever.
            try? transaction {
                storage.pendingDeepLink = nil
                markChanged()
            }
        }
    }

    /// A new node id. Node and item ids come from one counter that is part of the transaction's storage: an id
    /// taken by a transaction that failed was never visible, so it is taken again by the next one.
    func newNodeID() -> NodeID {
        defer { storage.nextID += 1 }
        return NodeID(storage.nextID)
    }

    /// A new item id (see ``newNodeID()``).
    func newItemID() -> ItemID {
        defer { storage.nextID += 1 }
        return ItemID(storage.nextID)
    }
}

/// One committed change: the version it made, why it happened, and what became visible.
public struct Commit: Sendable, Hashable {
    /// Why the commit happened.
    public enum Cause: String, Sendable, Hashable {
        /// An operation called by the app or the server.
        case direct
        /// A pending deep link completed after another change made it possible.
        case pendingDeepLink
        /// A guarded route entered after another change made its guard allow it.
        case pendingRoute
    }

    /// The version after the commit (the one before is `version - 1`).
    public let version: Int
    /// Why it happened.
    public let cause: Cause
    /// The visible route path after the commit.
    public let visiblePath: [String]
    /// The coordinators the change started (their `onStart` ran after it), in order.
    public let started: [CoordinatorReference]
    /// The coordinators the change finished (their `onFinish` ran after it), deepest first.
    public let finished: [CoordinatorReference]
    /// Whether lifecycle hooks (`onStart`, `onFinish`, `childDidFinish`, `onDismiss`) ran after it: they may
    /// have changed what screens show, so a document rendered before them is stale.
    public var ranLifecycleHooks: Bool { !started.isEmpty || !finished.isEmpty || ranDismissHooks }
    /// When the commit is a guard's redirect: the guarded route it went instead of (now pending); nil otherwise.
    public let redirected: PendingRoute?
    /// What the engine's ``NavigationEngine/commitPolicy`` rendered as it checked the commit (before the hooks
    /// ran); nil without a policy.
    public let documents: CommitDocuments?
    /// Whether `onDismiss` callbacks ran after it.
    private let ranDismissHooks: Bool

    init(
        version: Int, cause: Cause, visiblePath: [String], started: [CoordinatorReference],
        finished: [CoordinatorReference], redirected: PendingRoute?, ranDismissHooks: Bool,
        documents: CommitDocuments? = nil
    ) {
        self.documents = documents
        self.version = version
        self.cause = cause
        self.visiblePath = visiblePath
        self.started = started
        self.finished = finished
        self.redirected = redirected
        self.ranDismissHooks = ranDismissHooks
    }
}

struct DeepLinkStillPending: Error {}
