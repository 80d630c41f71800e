import Foundation
import SwitchyardServer
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
    private let writer: SQLiteWriter
    private let reader: Mutex<SQLiteReader>

    /// Opens (creating if needed) the database at `path`, migrates it to the current schema and checks that it
    /// can be written. `maxBytes` caps the file's size (writes past it fail as if the disk were full); nil: no cap.
    ///
    /// - Throws: ``ArchiveError/unreadable(_:)`` for a corrupt file or one of a newer schema,
    ///   ``ArchiveError/unavailable(_:)`` when the file cannot be opened or written.
    public init(
        path: String, durability: Durability = .process, maxBytes: Int? = nil, historyRetention: Int? = nil,
        replyLimit: Int = 256
    ) throws(ArchiveError) {
        self.path = path
        self.durability = durability
        let connection: SQLiteConnection
        do throws(SQLiteError) {
            connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA busy_timeout = 5000")
            let mode = try connection.text("PRAGMA journal_mode = WAL")
            guard mode?.lowercased() == "wal" else {
                throw SQLiteError(code: 1, message: "the database cannot use write-ahead logging (mode \(mode ?? "?"))")
            }
            try connection.execute("PRAGMA synchronous = \(durability == .machine ? "FULL" : "NORMAL")")
            try connection.execute(Self.tuning)
            if let maxBytes {
                let pageSize = max(1, try connection.integer("PRAGMA page_size"))
                try connection.execute("PRAGMA max_page_count = \(max(16, maxBytes / pageSize))")
            }
        } catch {
            throw error.archiveError
        }
        try SQLiteSchema.migrate(connection)
        // At least the current version is kept: it is where a session's state is read from.
        writer = try SQLiteWriter(
            connection: connection, historyRetention: historyRetention.map { max(1, $0) },
            replyLimit: max(1, replyLimit))
        do {
            reader = Mutex(try SQLiteReader(path: path))
        } catch {
            writer.close()
            throw error.archiveError
        }
    }

    /// Pages kept in memory and mapped from the file (each connection): fewer reads through system calls.
    static let tuning = "PRAGMA cache_size = -32768; PRAGMA mmap_size = 268435456; PRAGMA temp_store = MEMORY"

    public func apply(_ writes: [ArchiveWrite]) throws(ArchiveError) {
        guard !writes.isEmpty else { return }
        try writer.submit(writes)
    }

    public func session(_ id: String) throws(ArchiveError) -> StoredSession? {
        try reading { reader throws(SQLiteError) in try reader.session(id) }
    }

    public func history(of session: String, after: Int?, limit: Int) throws(ArchiveError) -> [StoredChange] {
        try reading { reader throws(SQLiteError) in try reader.history(of: session, after: after, limit: limit) }
    }

    public func state(of session: String, at version: Int) throws(ArchiveError) -> [UInt8]? {
        try reading { reader throws(SQLiteError) in try reader.state(of: session, at: version) }
    }

    public func version(of session: String) throws(ArchiveError) -> Int? {
        try reading { reader throws(SQLiteError) in try reader.version(of: session) }
    }

    public func creation(_ key: String) throws(ArchiveError) -> StoredReply? {
        try reading { reader throws(SQLiteError) in try reader.creation(key) }
    }

    public func expire(usedBefore: Double, unusedBefore: Double) throws(ArchiveError) -> [String] {
        let expired = try reading { reader throws(SQLiteError) in
            try reader.idleSessions(usedBefore: usedBefore, unusedBefore: unusedBefore)
        }
        guard !expired.isEmpty else { return [] }
        try writer.submit(expired.map { ArchiveWrite.remove(session: $0) })
        return expired
    }

    public func close() {
        writer.close()
    }

    public var statistics: ArchiveStatistics? {
        let (commits, batches) = writer.statistics
        return ArchiveStatistics(commits: commits, batches: batches)
    }

    private func reading<Value: Sendable>(
        _ body: (SQLiteReader) throws(SQLiteError) -> Value
    ) throws(ArchiveError) -> Value {
        guard !writer.isClosed else { throw .closed }
        do {
            return try reader.withLock { reader throws(SQLiteError) in try body(reader) }
        } catch {
            throw error.archiveError
        }
    }
}
