import Switchyard

/// Where sessions are kept beyond the process: a durable store the server writes every change to before it
/// answers, and reads a session back from on its first use after a restart.
///
/// An archive must be safe to call from many threads at once. ``apply(_:)`` writes: it stores a batch atomically
/// (all of it or none of it) and returns only once the batch is as durable as the archive promises; an archive is
/// free to group the batches of concurrent callers into one commit. ``submit(_:after:)`` queues a batch for the
/// same commit without waiting for it (by default it applies the batch at once). Every other call reads.
///
/// The server keeps a session in memory while it is used and treats the archive as the truth: a session whose
/// write failed is dropped from memory and read back from the archive when next named.
public protocol SessionArchive: Sendable {
    /// Stores `writes` atomically and durably; throws ``ArchiveError`` when they were not stored (none of them is).
    func apply(_ writes: [ArchiveWrite]) throws(ArchiveError)
    /// Queues `writes` for the same commit as ``apply(_:)`` and returns without waiting for it: the caller then
    /// finishes the submission (``ArchiveSubmission/finish()``). Writes are committed in the order they were
    /// submitted; writes submitted `after` an earlier submission build on it (a session's next change, made on the
    /// state that one stores), and fail with ``ArchiveError/conflict(_:)``, unapplied, if it failed: the version
    /// they build on may be stored by then with other contents. By default the writes are applied at once.
    func submit(_ writes: [ArchiveWrite], after previous: (any ArchiveSubmission)?) -> any ArchiveSubmission
    /// The stored session with this id (its history is read with ``history(of:after:limit:)``); nil when there
    /// is none.
    func session(_ id: String) throws(ArchiveError) -> StoredSession?
    /// Up to `limit` history entries of a session, oldest first: those after version `after`, or (nil) the latest.
    /// Their `state` is left empty (read it with ``state(of:at:)``).
    func history(of session: String, after: Int?, limit: Int) throws(ArchiveError) -> [StoredChange]
    /// The restore document of a session at `version`, while its history keeps that version; nil otherwise.
    func state(of session: String, at version: Int) throws(ArchiveError) -> [UInt8]?
    /// The version the session is stored at; nil when it is not stored. One cheap read.
    func version(of session: String) throws(ArchiveError) -> Int?
    /// Up to `limit` ids of the stored sessions of `app`, in id order, after `after` (nil: from the first): what a
    /// reload of the app's definition checks, page by page.
    func sessionIDs(ofApp app: String, after: String?, limit: Int) throws(ArchiveError) -> [String]
    /// The keyed creation remembered under `key` (scoped to a client); nil when there is none.
    func creation(_ key: String) throws(ArchiveError) -> StoredReply?
    /// The sessions of `ids` that are stored, in the order of `ids`, with up to `entries` of their oldest kept
    /// history entries each, with the requests `requests` names: what analytics reads, a page of
    /// ``sessionIDs(ofApp:after:limit:)`` at a time (several pages may be read at once). By default read session by
    /// session with the reads above, without the creation time.
    func journeys(
        of ids: [String], entries: Int, requests: StoredJourney.Requests
    ) throws(ArchiveError) -> [StoredJourney]
    /// Deletes every session last used before `usedBefore` (or, for sessions no request named after their
    /// creation, before `unusedBefore`); returns their ids.
    func expire(usedBefore: Double, unusedBefore: Double) throws(ArchiveError) -> [String]
    /// Closes the archive: later calls fail with ``ArchiveError/closed``; calls already running finish.
    func close()
    /// How many commits the archive made and how many ``apply(_:)`` batches they held; nil if it does not count.
    var statistics: ArchiveStatistics? { get }
    /// Whether the archive can serve reads and writes now, as far as it knows without asking its storage (cheap
    /// enough for every readiness probe).
    var condition: ArchiveCondition { get }
    /// Whether sessions outlive the process: then a full server takes the least recently used sessions out of
    /// memory (they stay stored), and readiness says the store is durable. True unless the archive says otherwise.
    var isDurable: Bool { get }
    /// The archive as one several nodes write to, when it is: the server then checks its copies against it and
    /// follows its notices. Nil unless the archive is a ``SharedSessionArchive``.
    var shared: (any SharedSessionArchive)? { get }
    /// Where the archive keeps the app versions published through the admin API; nil when it keeps none (then
    /// publishing is refused and each node serves what it was started with).
    var registry: (any AppRegistryStore)? { get }
    /// Whether the archive keeps ``StoredChange/delta`` instead of the whole document when given one: only then
    /// does the session layer spend the time to make deltas (and keep each session's stored document in memory as
    /// the next one's base). False unless the archive says otherwise.
    var storesDeltas: Bool { get }
}

extension SessionArchive {
    public func submit(_ writes: [ArchiveWrite], after previous: (any ArchiveSubmission)?) -> any ArchiveSubmission {
        if let previous, case .failure = previous.awaitOutcome() { return SettledSubmission(.failure(.builtOnFailure)) }
        return SettledSubmission(Result { () throws(ArchiveError) in try apply(writes) })
    }

    public var statistics: ArchiveStatistics? { nil }
    public var condition: ArchiveCondition { .ready }
    public var isDurable: Bool { true }
    public var shared: (any SharedSessionArchive)? { nil }
    public var registry: (any AppRegistryStore)? { nil }
    public var storesDeltas: Bool { false }
}

/// How an archive is doing, for readiness probes and the logs (never for a client's answer).
public enum ArchiveCondition: Sendable, Equatable {
    /// Reads and writes work.
    case ready
    /// Reads, deletions and expiry work; changes and new sessions are refused (a full disk). Says why.
    case readOnly(String)
    /// Nothing can be stored or read now (the database does not answer). Says why.
    case unavailable(String)
}

/// What an archive reports for `/metrics`: commits, and the batches they held (more batches than commits is group
/// commit at work).
public struct ArchiveStatistics: Sendable, Equatable {
    /// Transactions committed (or attempted).
    public var commits: Int
    /// Batches given to ``SessionArchive/apply(_:)`` that those transactions held.
    public var batches: Int
    /// Bytes of history the archive holds in this process's memory (the in-memory archive); nil for a store that
    /// keeps it elsewhere.
    public var historyBytes: Int?
    /// Round trips to a database server (each statement or pipeline sent and its results read); nil for a store
    /// in this process.
    public var roundTrips: Int?

    /// Statistics.
    public init(commits: Int, batches: Int, historyBytes: Int? = nil, roundTrips: Int? = nil) {
        self.commits = commits
        self.batches = batches
        self.historyBytes = historyBytes
        self.roundTrips = roundTrips
    }
}

/// One write of a batch given to ``SessionArchive/apply(_:)``.
public enum ArchiveWrite: Sendable {
    /// A new session (and, for a keyed creation, the 201 to replay under its key). A key stored already (another
    /// node created a session under it first) fails the batch with ``ArchiveError/conflict(_:)``.
    case create(StoredSession, creation: StoredReply?)
    /// A committed change of a session made on the state of version `base`: its new version and state, the
    /// history entries of the versions it made (each with its time and the restore document of its version), and
    /// the answer remembered under an idempotency key.
    ///
    /// A compare-and-set: when the session is no longer stored at `base` (another node changed it first, or it
    /// ended), the batch fails with ``ArchiveError/conflict(_:)`` and nothing is stored. A reply under a key
    /// stored already replaces it.
    case change(session: String, base: Int, version: Int, state: [UInt8], history: [StoredChange], reply: StoredReply?)
    /// A session that ended (deleted or expired): everything stored for it goes.
    case remove(session: String)
    /// A session was used (read, followed) without changing: its expiry moves (never back). A change is a use
    /// too: at the time of its latest history entry.
    case touch(session: String, lastAccess: Double, used: Bool)
}

/// Why an archive could not do what was asked.
public enum ArchiveError: Error, Sendable, Equatable {
    /// The store cannot be written or read right now (disk full, I/O error, connection lost); retrying later may
    /// succeed. Nothing of the failed call was stored.
    case unavailable(String)
    /// What is stored cannot be read (corrupt data, a schema newer than this program).
    case unreadable(String)
    /// The archive was closed.
    case closed
    /// What the write expected is no longer so (the session changed, ended, or the key was used on another node
    /// first); nothing was stored. Read the session again and retry.
    case conflict(String)
}

extension ArchiveError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unavailable(let reason): "store unavailable: \(reason)"
        case .unreadable(let reason): "stored data unreadable: \(reason)"
        case .closed: "the store is closed"
        case .conflict(let reason): "write conflict: \(reason)"
        }
    }
}

/// A session as the archive keeps it.
public struct StoredSession: Sendable {
    /// The session id.
    public var id: String
    /// The name of its ``Switchyard/NavigationApp``.
    public var app: String
    /// Its current version.
    public var version: Int
    /// Its restore document (``Switchyard/NavigationEngine/restoreDocument()``).
    public var state: [UInt8]
    /// When a request last used it (seconds since 1970).
    public var lastAccess: Double
    /// Whether a request named it after the one that created it.
    public var used: Bool
    /// The answers remembered under idempotency keys, oldest first.
    public var replies: [StoredReply]

    /// A stored session.
    public init(
        id: String, app: String, version: Int, state: [UInt8], lastAccess: Double, used: Bool,
        replies: [StoredReply] = []
    ) {
        self.id = id
        self.app = app
        self.version = version
        self.state = state
        self.lastAccess = lastAccess
        self.used = used
        self.replies = replies
    }
}

/// One entry of a session's history: a committed version.
public struct StoredChange: Sendable {
    /// The version the change made.
    public var version: Int
    /// When (seconds since 1970).
    public var time: Double
    /// Where it came from.
    public var source: HistorySource
    /// The request body as received.
    public var request: [UInt8]
    /// The visible route path after it.
    public var visiblePath: [String]
    /// The restore document of this version.
    public var state: [UInt8]
    /// The same document as a delta from the version before, when the session layer made one: a store may keep
    /// it instead of `state` (and then rebuilds `state` with ``StateDelta/rebuild(_:read:)``). Nil when the
    /// document is to be stored whole (a snapshot). Never set on entries read back.
    public var delta: StateDelta?
    /// The coordinators the change started, in order.
    public var started: [CoordinatorReference]
    /// The coordinators the change finished, deepest first.
    public var finished: [CoordinatorReference]
    /// When the change is a guard's redirect: the guarded route it went instead of.
    public var redirected: PendingRoute?

    /// A history entry.
    public init(
        version: Int, time: Double, source: HistorySource, request: [UInt8], visiblePath: [String], state: [UInt8],
        started: [CoordinatorReference] = [], finished: [CoordinatorReference] = [], redirected: PendingRoute? = nil,
        delta: StateDelta? = nil
    ) {
        self.delta = delta
        self.version = version
        self.time = time
        self.source = source
        self.request = request
        self.visiblePath = visiblePath
        self.state = state
        self.started = started
        self.finished = finished
        self.redirected = redirected
    }
}

/// An answer remembered under an idempotency key, to replay to a retry.
public struct StoredReply: Sendable {
    /// The key as the client sent it (scoped to the client for creations).
    public var key: String
    /// The fingerprint of the request answered (the same key with another request is refused).
    public var fingerprint: UInt64
    /// The session it belongs to (for a creation: the session it created).
    public var session: String
    /// The HTTP status.
    public var status: Int
    /// The response headers.
    public var headers: [(String, String)]
    /// The response body.
    public var body: [UInt8]

    /// A remembered answer.
    public init(
        key: String, fingerprint: UInt64, session: String, status: Int, headers: [(String, String)], body: [UInt8]
    ) {
        self.key = key
        self.fingerprint = fingerprint
        self.session = session
        self.status = status
        self.headers = headers
        self.body = body
    }
}
