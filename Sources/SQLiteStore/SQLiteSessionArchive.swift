import Foundation
import SwitchyardSessions
import Synchronization

/// Sessions in an embedded SQLite database (WAL mode): the server's default durable store.
///
/// Concurrent requests' writes share commits (group commit, led by the first caller waiting); readers use their
/// own connection, so loading a session does not wait for writes. See ``Durability`` for what a commit survives.
public final class SQLiteSessionArchive: SessionArchive {
    /// What an acknowledged write survives.
    public enum Durability: String, Sendable, CaseIterable {
        /// A crash or `kill -9` of the process (`synchronous=NORMAL`: the write-ahead log is in the operating
        /// system's hands at commit); a power loss may take back the last commits.
        case process
        /// Also a power loss or kernel crash (`synchronous=FULL`: the log is fsynced at every group commit).
        case machine
    }

    /// The database file.
    public let path: String
    /// What a commit survives.
    public let durability: Durability
    let writer: SQLiteWriter
    /// Connections for reads, each used by one caller at a time: two, so that a read waits for another only when
    /// both are busy (analytics reads two pages at once; a session loaded meanwhile takes the one left).
    private let reader: Mutex<SQLiteReader>
    private let secondReader: Mutex<SQLiteReader>
    /// Which reader a caller that finds both busy waits for, in turn.
    private let turn = Atomic<Int>(0)

    /// Opens (creating if needed) the database at `path`, migrates it to the current schema, checks it and checks
    /// that it can be written.
    ///
    /// - Parameters:
    ///   - maxBytes: caps what the store takes on disk: the database, its write-ahead log and its reserve (writes
    ///     past it fail as if the disk were full); nil: no cap.
    ///   - limits: what the store keeps of each session at most.
    ///   - reserveBytes: room held in reserve for deletions on a full disk (``SQLiteSpace``); nil: 1/64 of the
    ///     disk, from 1 MiB to 16 MiB (at most an eighth of `maxBytes`).
    ///   - startCheckBytes: a store up to this size is checked page by page before it opens (a damaged one is
    ///     refused); a larger one after, in the background (``SQLiteIntegrity``).
    /// - Throws: ``ArchiveError/unreadable(_:)`` for a corrupt or empty file, or one of a newer schema;
    ///   ``ArchiveError/unavailable(_:)`` when the file cannot be opened or written (a full disk is no reason:
    ///   the store then opens to serve reads, and takes changes again once the disk has room).
    public init(
        path: String, durability: Durability = .process, maxBytes: Int? = nil, limits: StoreLimits = .standard,
        reserveBytes: Int? = nil, startCheckBytes: Int = SQLiteSessionArchive.startCheckBytes
    ) throws(ArchiveError) {
        self.path = path
        self.durability = durability
        try Self.refuseEmptyFile(path)
        let space = SQLiteSpace(
            databasePath: path, reserveBytes: maxBytes.map { min(reserveBytes ?? .max, $0 / 8) } ?? reserveBytes)
        let startsFull = space.prepareForOpen()
        let connection: SQLiteConnection
        do throws(SQLiteError) {
            connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA busy_timeout = 5000")
            // Before the log is set up: a new store hands deleted pages back to the disk when it fills (a store
            // with tables keeps the setting it was created with).
            try connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
            let mode = try connection.text("PRAGMA journal_mode = WAL")
            guard mode?.lowercased() == "wal" else {
                throw SQLiteError(code: 1, message: "the database cannot use write-ahead logging (mode \(mode ?? "?"))")
            }
            try connection.execute("PRAGMA synchronous = \(durability == .machine ? "FULL" : "NORMAL")")
            try connection.execute(Self.tuning)
            try Self.bound(connection, maxBytes: maxBytes, reserve: space.reserveBytes)
        } catch {
            throw error.archiveError
        }
        try SQLiteSchema.migrate(connection)
        let integrity = SQLiteIntegrity()
        if Self.fileSize(path) <= startCheckBytes {
            try SQLiteSchema.check(connection)
        } else {
            integrity.checkInBackground(path)
        }
        if !startsFull, try !SQLiteSchema.canWrite(connection) { _ = space.diskFilled() }
        writer = try SQLiteWriter(connection: connection, limits: limits, space: space, integrity: integrity)
        do {
            reader = Mutex(try SQLiteReader(path: path))
            secondReader = Mutex(try SQLiteReader(path: path))
        } catch {
            writer.close()
            throw error.archiveError
        }
    }

    /// The largest store checked page by page before it opens (about 0.15 s here); larger ones are checked after.
    public static let startCheckBytes = 32 << 20

    private static func fileSize(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// Pages kept in memory (each connection). No memory-mapped reads: a store file shortened under a running
    /// server would kill it with SIGBUS on the next read, where a read through the system answers an error.
    static let tuning = "PRAGMA cache_size = -32768; PRAGMA mmap_size = 0; PRAGMA temp_store = MEMORY"

    /// Keeps the write-ahead log short (truncated after each checkpoint to a limit) and, with `maxBytes`, the
    /// whole store within it: the log gets a quarter, the reserve its share, the database the rest.
    private static func bound(_ connection: SQLiteConnection, maxBytes: Int?, reserve: Int) throws(SQLiteError) {
        let pageSize = max(512, try connection.integer("PRAGMA page_size"))
        guard let maxBytes else {
            try connection.execute("PRAGMA journal_size_limit = \(64 << 20)")
            return
        }
        let log = maxBytes / 4
        try connection.execute("PRAGMA journal_size_limit = \(log)")
        try connection.execute("PRAGMA wal_autocheckpoint = \(max(16, log / 2 / pageSize))")
        try connection.execute("PRAGMA max_page_count = \(max(16, (maxBytes - log - reserve) / pageSize))")
    }

    /// A store file of 0 bytes (with no write-ahead log beside it) is no store Switchyard wrote: a failed copy or
    /// restore. Opening it would start a new, empty store and silently drop every session.
    private static func refuseEmptyFile(_ path: String) throws(ArchiveError) {
        func size(_ file: String) -> Int? {
            (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? nil
        }
        guard size(path) == 0, (size(path + "-wal") ?? 0) == 0 else { return }
        throw .unreadable(
            "the file is empty (0 bytes), which no store is once written: a failed copy or restore? Restore it from a "
                + "backup, or remove it to start with no sessions")
    }

    public func apply(_ writes: [ArchiveWrite]) throws(ArchiveError) {
        guard !writes.isEmpty else { return }
        try writer.apply(writes)
    }

    /// Queues `writes` for the next group commit; the caller finishes the submission.
    public func submit(_ writes: [ArchiveWrite], after previous: (any ArchiveSubmission)?) -> any ArchiveSubmission {
        writer.submit(writes, after: previous as? SQLiteWriter.Ticket)
    }

    public func session(_ id: String) throws(ArchiveError) -> StoredSession? {
        try reading { reader throws(SQLiteError) in try reader.session(id) }
    }

    public func history(of session: String, after: Int?, limit: Int) throws(ArchiveError) -> [StoredChange] {
        try reading { reader throws(SQLiteError) in try reader.history(of: session, after: after, limit: limit) }
    }

    public func state(of session: String, at version: Int) throws(ArchiveError) -> [UInt8]? {
        let rebuilt = try reading { reader throws(SQLiteError) in try reader.state(of: session, at: version) }
        return try rebuilt.kept(session)
    }

    public func version(of session: String) throws(ArchiveError) -> Int? {
        try reading { reader throws(SQLiteError) in try reader.version(of: session) }
    }

    public func sessionIDs(ofApp app: String, after: String?, limit: Int) throws(ArchiveError) -> [String] {
        try reading { reader throws(SQLiteError) in try reader.sessionIDs(ofApp: app, after: after, limit: limit) }
    }

    public func journeys(
        of ids: [String], entries: Int, requests: StoredJourney.Requests
    ) throws(ArchiveError) -> [StoredJourney] {
        try reading { reader throws(SQLiteError) in try reader.journeys(of: ids, entries: entries, requests: requests) }
    }

    public func creation(_ key: String) throws(ArchiveError) -> StoredReply? {
        try reading { reader throws(SQLiteError) in try reader.creation(key) }
    }

    public func expire(usedBefore: Double, unusedBefore: Double) throws(ArchiveError) -> [String] {
        let expired = try reading { reader throws(SQLiteError) in
            try reader.idleSessions(usedBefore: usedBefore, unusedBefore: unusedBefore)
        }
        guard !expired.isEmpty else { return [] }
        try writer.apply(expired.map { ArchiveWrite.remove(session: $0) })
        return expired
    }

    public func close() {
        writer.close()
    }

    /// True: history entries keep the deltas they are given (``StateDelta``).
    public var storesDeltas: Bool { true }

    public var condition: ArchiveCondition {
        guard !writer.isClosed else { return .unavailable("the store is closed") }
        if let damage = writer.integrity.damaged {
            return .readOnly("the store is damaged, so changes are refused: \(damage)")
        }
        return writer.space.isFull && !writer.space.recovered() ? .readOnly(SQLiteWriter.diskFull) : .ready
    }

    public var statistics: ArchiveStatistics? {
        let (commits, batches) = writer.statistics
        return ArchiveStatistics(commits: commits, batches: batches)
    }

    func reading<Value: Sendable>(
        _ body: (SQLiteReader) throws(SQLiteError) -> Value
    ) throws(ArchiveError) -> Value {
        guard !writer.isClosed else { throw .closed }
        do {
            if let value = try reader.withLockIfAvailable({ reader throws(SQLiteError) in try body(reader) }) {
                return value
            }
            if let value = try secondReader.withLockIfAvailable({ reader throws(SQLiteError) in try body(reader) }) {
                return value
            }
            guard turn.add(1, ordering: .relaxed).oldValue.isMultiple(of: 2) else {
                return try secondReader.withLock { reader throws(SQLiteError) in try body(reader) }
            }
            return try reader.withLock { reader throws(SQLiteError) in try body(reader) }
        } catch {
            throw error.archiveError
        }
    }
}
