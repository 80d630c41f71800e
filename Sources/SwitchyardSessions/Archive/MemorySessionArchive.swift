import Dispatch
import Synchronization

/// An archive held in this process's memory: what a store promises, without a disk.
///
/// It is where sessions live when no store is configured: every session, its history (within its
/// ``StoreLimits``, by default ``StoreLimits/inMemory``) and its remembered replies end with the process. It is
/// also the reference the store conformance suite holds SQLite and PostgreSQL to, and, made with
/// ``Nodes/several``, it lets several servers in one process act as nodes sharing one store (tests, embedding);
/// notices are then delivered in order on a queue of their own.
public final class MemorySessionArchive: SharedSessionArchive {
    /// Whether the archive serves one server, or several in this process that share it as nodes do a database.
    public enum Nodes: Sendable {
        /// One server: it is told nothing (``SessionArchive/shared`` is nil).
        case one
        /// Several servers: each checks its copies against the archive and follows its notices.
        case several
    }

    private struct Record {
        var session: StoredSession
        var initialState: [UInt8]
        /// When it was created: its last use when it was stored.
        var created: Double
        var history = MemoryHistory()
        /// When the session was last changed, on the archive's own count of changes.
        var changed: UInt64 = 0
        var hasHistory: Bool { !history.isEmpty }
    }

    private struct Contents {
        var records: [String: Record] = [:]
        var creations: [String: StoredReply] = [:]
        /// The keys of each session's keyed creation, so that a removal finds them at once.
        var creationKeys: [String: [String]] = [:]
        var closed = false
        var published = StoredRegistry(generation: 0, document: [])
        var observers: [@Sendable (ArchiveNotice) -> Void] = []
        /// Bytes of history all sessions hold.
        var historyBytes = 0
        /// Changes applied, for ``Record/changed`` and the statistics.
        var changes: UInt64 = 0
        /// When shedding could not bring the history under the budget (the current versions alone pass it), the
        /// bytes it must grow to before it is tried again: not every change scans every session.
        var shedAbove = 0
        var commits = 0
        var batches = 0
        /// The last first state each app's sessions were created with: a new session whose first state is the same
        /// (most are: an app starts every session alike) keeps these bytes instead of its own copy.
        var firstStates: [String: [UInt8]] = [:]
    }

    private let contents = Mutex(Contents())
    private let notices = DispatchQueue(label: "switchyard.memory-archive.notices")
    private let limits: StoreLimits
    private let nodes: Nodes
    private let historyBudget: Int?

    /// An empty archive keeping what `limits` allows of each session, for one server or `nodes`, and at most
    /// `historyBudget` bytes of history of all sessions together (nil: no bound but the sessions' own).
    ///
    /// Past the budget, the sessions changed longest ago give up their history first (all but their current
    /// version) until about three quarters of it are left: memory stays bounded however many sessions there are,
    /// and the sessions in use keep their time travel.
    public init(limits: StoreLimits = .standard, nodes: Nodes = .one, historyBudget: Int? = nil) {
        self.limits = limits
        self.nodes = nodes
        self.historyBudget = historyBudget
    }

    /// Commits and batches, and the bytes of history held in memory.
    public var statistics: ArchiveStatistics? {
        contents.withLock { contents in
            ArchiveStatistics(
                commits: contents.commits, batches: contents.batches, historyBytes: contents.historyBytes)
        }
    }

    /// Sessions end with the process.
    public var isDurable: Bool { false }

    /// Itself when several servers share it; nil for one.
    public var shared: (any SharedSessionArchive)? {
        switch nodes {
        case .one: nil
        case .several: self
        }
    }

    public func apply(_ writes: [ArchiveWrite]) throws(ArchiveError) {
        let (observers, notices) = try contents.withLock { contents throws(ArchiveError) in
            guard !contents.closed else { throw ArchiveError.closed }
            // All or nothing: every write is checked before any is made.
            try Self.check(writes, against: contents)
            contents.commits += 1
            contents.batches += writes.count
            let notices = writes.compactMap { apply($0, &contents) }
            if let historyBudget, contents.historyBytes > max(historyBudget, contents.shedAbove) {
                Self.shed(&contents, budget: historyBudget)
                contents.shedAbove =
                    contents.historyBytes > historyBudget ? contents.historyBytes + historyBudget / 8 : 0
            }
            return (contents.observers, notices)
        }
        announce(notices, to: observers)
    }

    /// Changes `record` to `version` with `state`, its new history entries and the answer to keep under a key;
    /// returns how many bytes its history grew by (negative: shrank).
    private func change(
        _ record: inout Record, to version: Int, state: [UInt8], history: [StoredChange], reply: StoredReply?,
        serial: UInt64
    ) -> Int {
        if let reply {
            // A key stored again (the node had forgotten it) replaces the answer it kept.
            record.session.replies.removeAll { $0.key == reply.key }
            record.session.replies.append(reply)
            record.session.replies.removeFirst(max(0, record.session.replies.count - limits.replies))
            let sizes = record.session.replies.map { $0.body.count + StoredText.headers($0.headers).utf8.count }
            record.session.replies.removeFirst(Self.oldestOut(sizes, budget: limits.replyBytes))
        }
        let before = record.history.bytes
        record.history.append(history)
        if !history.contains(where: { $0.version == version && !$0.state.isEmpty }) {
            // A change without a new version (app data changed, or a keyed answer): its state is this one now.
            record.history.replaceState(of: version, with: state)
            if version == 0 { record.initialState = state }
        }
        record.history.trim(at: version, retention: limits.historyEntries, budget: limits.historyBytes)
        record.changed = serial
        record.session.version = version
        record.session.state = state
        record.session.used = record.session.used || !history.isEmpty
        // A migration is not a use: its entry keeps its own time, the session its last use.
        let lastUse = history.last { $0.source != .migration }?.time ?? 0
        record.session.lastAccess = max(record.session.lastAccess, lastUse)
        return record.history.bytes - before
    }

    /// Throws the conflict the batch would run into, taking its earlier writes into account.
    private static func check(_ writes: [ArchiveWrite], against contents: Contents) throws(ArchiveError) {
        var versions: [String: Int?] = [:]
        var keys: Set<String> = []
        for write in writes {
            switch write {
            case .create(let session, let creation):
                guard (versions[session.id] ?? contents.records[session.id]?.session.version) == nil else {
                    throw .conflict("session \(session.id) exists")
                }
                if let key = creation?.key {
                    guard contents.creations[key] == nil, keys.insert(key).inserted else {
                        throw .conflict("a session was created under this key already")
                    }
                }
                versions[session.id] = session.version
            case .change(let id, let base, let version, _, _, _):
                guard let stored = versions[id] ?? contents.records[id]?.session.version else {
                    throw .conflict("session \(id) is no longer stored")
                }
                guard stored == base else { throw .conflict("session \(id) is at version \(stored), not \(base)") }
                versions[id] = version
            case .remove(let id):
                versions[id] = .some(nil)
            case .touch:
                break
            }
        }
    }

    private func apply(_ write: ArchiveWrite, _ contents: inout Contents) -> ArchiveNotice? {
        switch write {
        case .create(let session, let creation):
            if let creation {
                contents.creations[creation.key] = creation
                contents.creationKeys[session.id, default: []].append(creation.key)
            }
            var session = session
            if let shared = contents.firstStates[session.app], shared == session.state {
                session.state = shared
            } else {
                contents.firstStates[session.app] = session.state
            }
            contents.records[session.id] = Record(
                session: session, initialState: session.state, created: session.lastAccess)
            return nil
        case .change(let id, let base, let version, let state, let history, let reply):
            guard let index = contents.records.index(forKey: id) else { return nil }
            contents.changes += 1
            // Changed in place: no removal and insertion (two hash lookups and a copy of the record) per change.
            contents.historyBytes += change(
                &contents.records.values[index], to: version, state: state, history: history, reply: reply,
                serial: contents.changes)
            return version == base ? nil : .changed(session: id, version: version)
        case .remove(let id):
            guard let removed = contents.records.removeValue(forKey: id) else { return nil }
            contents.historyBytes -= removed.history.bytes
            for key in contents.creationKeys.removeValue(forKey: id) ?? [] { contents.creations[key] = nil }
            return .removed(session: id)
        case .touch(let id, let lastAccess, let used):
            guard var record = contents.records.removeValue(forKey: id) else { return nil }
            record.session.lastAccess = max(record.session.lastAccess, lastAccess)
            record.session.used = record.session.used || used
            contents.records[id] = record
            return nil
        }
    }

    /// Brings the history of all sessions back under about three quarters of `budget`: the sessions changed longest
    /// ago keep only their current version's entry.
    private static func shed(_ contents: inout Contents, budget: Int) {
        let oldestFirst = contents.records.compactMap { id, record in
            record.history.entries.count > 1 ? (record.changed, id) : nil
        }.sorted { $0.0 < $1.0 }
        for (_, id) in oldestFirst {
            guard contents.historyBytes > budget / 4 * 3 else { return }
            guard var record = contents.records.removeValue(forKey: id) else { continue }
            let before = record.history.bytes
            record.history.trim(at: record.session.version, retention: 1, budget: .max)
            contents.historyBytes -= before - record.history.bytes
            contents.records[id] = record
        }
    }

    /// How many of the oldest items go when their `sizes` (oldest first) pass `budget`: enough to leave about
    /// three quarters of it, the newest item always kept (the stores trim the same way).
    static func oldestOut(_ sizes: [Int], budget: Int) -> Int {
        guard sizes.reduce(0, +) > budget else { return 0 }
        var kept = 0
        for (index, size) in sizes.enumerated().reversed() {
            kept += size
            if kept > budget / 4 * 3 && index < sizes.count - 1 { return index + 1 }
        }
        return 0
    }

    private func announce(_ list: [ArchiveNotice], to observers: [@Sendable (ArchiveNotice) -> Void]) {
        guard !list.isEmpty, !observers.isEmpty else { return }
        notices.async {
            for notice in list {
                for observer in observers { observer(notice) }
            }
        }
    }

    public func session(_ id: String) throws(ArchiveError) -> StoredSession? {
        try reading { $0.records[id]?.session }
    }

    public func session(
        _ id: String, unlessAt version: Int, reply key: String?
    ) throws(ArchiveError)
        -> StoredSessionRead
    {
        try reading { contents in
            guard let session = contents.records[id]?.session else { return .absent }
            guard session.version == version else { return .changed(session) }
            return .unchanged(reply: key.flatMap { key in session.replies.last { $0.key == key } })
        }
    }

    public func version(of session: String) throws(ArchiveError) -> Int? {
        try reading { $0.records[session]?.session.version }
    }

    public func sessionIDs(ofApp app: String, after: String?, limit: Int) throws(ArchiveError) -> [String] {
        try reading { contents in
            let ids = contents.records.values.map(\.session).filter { $0.app == app }.map(\.id)
            return Array(ids.filter { id in after.map { id > $0 } ?? true }.sorted().prefix(limit))
        }
    }

    public func versions(of sessions: [String]) throws(ArchiveError) -> [String: Int] {
        try reading { contents in
            var found: [String: Int] = [:]
            for id in sessions { found[id] = contents.records[id]?.session.version }
            return found
        }
    }

    public func history(of session: String, after: Int?, limit: Int) throws(ArchiveError) -> [StoredChange] {
        try reading { contents in
            let entries = (contents.records[session]?.history.entries ?? [])
                .map { change in
                    var entry = change
                    entry.state = []
                    return entry
                }
            guard let after else { return Array(entries.suffix(limit)) }
            return Array(entries.filter { $0.version > after }.prefix(limit))
        }
    }

    public func state(of session: String, at version: Int) throws(ArchiveError) -> [UInt8]? {
        try reading { contents in
            guard let record = contents.records[session] else { return nil }
            let state = version == 0 ? record.initialState : record.history.entry(version)?.state ?? []
            return state.isEmpty ? nil : state
        }
    }

    public func journeys(
        of ids: [String], entries: Int, requests: StoredJourney.Requests
    ) throws(ArchiveError) -> [StoredJourney] {
        try reading { contents in
            ids.compactMap { id in
                contents.records[id].map { record in
                    StoredJourney(
                        id: id, app: record.session.app, version: record.session.version,
                        initialState: record.initialState, created: record.created,
                        lastAccess: record.session.lastAccess,
                        entries: record.history.entries.prefix(entries).map {
                            StoredJourney.Entry($0, request: requests.includes($0.source))
                        })
                }
            }
        }
    }

    public func creation(_ key: String) throws(ArchiveError) -> StoredReply? {
        try reading { $0.creations[key] }
    }

    public func expire(usedBefore: Double, unusedBefore: Double) throws(ArchiveError) -> [String] {
        let idle = try reading { contents in
            contents.records.values.filter { record in
                let session = record.session
                return session.lastAccess < max(usedBefore, unusedBefore)
                    && (session.lastAccess < usedBefore || (!session.used && !record.hasHistory))
            }
            .map(\.session.id)
        }
        guard !idle.isEmpty else { return [] }
        try apply(idle.map { ArchiveWrite.remove(session: $0) })
        return idle
    }

    public func follow(_ observer: @escaping @Sendable (ArchiveNotice) -> Void) {
        contents.withLock { $0.observers.append(observer) }
    }

    public func close() {
        contents.withLock { $0.closed = true }
    }

    private func reading<Value>(_ body: (Contents) -> Value) throws(ArchiveError) -> Value {
        try contents.withLock { contents throws(ArchiveError) in
            guard !contents.closed else { throw ArchiveError.closed }
            return body(contents)
        }
    }
}

/// The published app versions, in memory like the sessions.
extension MemorySessionArchive: AppRegistryStore {
    public var registry: (any AppRegistryStore)? { self }

    public func readRegistry() throws(ArchiveError) -> StoredRegistry {
        try reading { $0.published }
    }

    public func registryGeneration() throws(ArchiveError) -> Int {
        try reading { $0.published.generation }
    }

    public func storeRegistry(_ document: [UInt8], replacing generation: Int) throws(ArchiveError) {
        try contents.withLock { contents throws(ArchiveError) in
            guard !contents.closed else { throw ArchiveError.closed }
            guard contents.published.generation == generation else {
                throw .conflict("the published apps changed meanwhile (generation \(contents.published.generation))")
            }
            contents.published = StoredRegistry(generation: generation + 1, document: document)
        }
    }
}
