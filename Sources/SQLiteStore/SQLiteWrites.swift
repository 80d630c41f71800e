internal import CSQLite
import SwitchyardSessions

/// The writer's prepared statements and how each ``ArchiveWrite`` becomes rows. Used only by the caller leading a
/// commit (``SQLiteWriter``).
final class SQLiteWrites {
    let connection: SQLiteConnection
    private let limits: StoreLimits
    /// What each session keeps, as far as this writer knows (``SQLiteFootprints``).
    private var footprints = SQLiteFootprints()
    private let insertSession: SQLiteStatement
    private let insertCreation: SQLiteStatement
    private let storedVersions: SQLiteStatement
    private let baseHasState: SQLiteStatement
    private let updateState: SQLiteStatement
    private let updateHistoryState: SQLiteStatement
    private let insertHistory: SQLiteStatement
    private let pruneHistory: SQLiteStatement
    private let historySizes: SQLiteStatement
    private let historyTotal: SQLiteStatement
    private let insertReply: SQLiteStatement
    private let pruneReplies: SQLiteStatement
    private let replySizes: SQLiteStatement
    private let replyTotal: SQLiteStatement
    private let dropReplies: SQLiteStatement
    private let touchSession: SQLiteStatement
    private let removals: [SQLiteStatement]
    /// The commit's own statements.
    let transaction: SQLiteTransactionStatements
    /// The store's data version when the last commit began: it changes when another connection commits.
    private var lastDataVersion = -1

    init(_ connection: SQLiteConnection, limits: StoreLimits) throws(SQLiteError) {
        self.connection = connection
        transaction = try SQLiteTransactionStatements(connection)
        self.limits = limits
        insertSession = try connection.prepare(
            """
            INSERT INTO sessions(id, app, version, state, initial_state, created, last_access, used)
            VALUES(?1, ?2, ?3, ?4, ?4, ?5, ?5, ?6)
            """
        )
        insertCreation = try connection.prepare(
            """
            INSERT INTO creations(key, session, fingerprint, status, headers, body)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6)
            """)
        // A change writes only its history entries (one append, one index entry each): its new version and state
        // are those of its latest entry, so the session's row is not rewritten (its version and state stay those
        // of its creation, its last access is recorded by the sweeps' `.touch`). The version is only read (once per
        // session, then known from the writes: `SQLiteFootprints`), to refuse a change of a session that is no
        // longer stored, or no longer at the change's base version; with it the oldest entry's.
        storedVersions = try connection.prepare(
            """
            SELECT COALESCE((SELECT MAX(version) FROM history WHERE session = ?1), version),
                (SELECT MIN(version) FROM history WHERE session = ?1) FROM sessions WHERE id = ?1
            """)
        // A delta is kept only on a base whose document is stored: rows written before schema 2 have none.
        baseHasState = try connection.prepare(
            """
            SELECT 1 FROM history WHERE session = ?1 AND version = ?2 AND state IS NOT NULL
            UNION ALL SELECT 1 FROM sessions WHERE id = ?1 AND ?2 = 0 AND initial_state IS NOT NULL
            """)
        updateHistoryState = try connection.prepare(
            "UPDATE history SET state = ?3, base = NULL WHERE session = ?1 AND version = ?2")
        updateState = try connection.prepare(
            "UPDATE sessions SET state = ?3, initial_state = CASE WHEN ?2 = 0 THEN ?3 ELSE initial_state END WHERE id = ?1"
        )
        insertHistory = try connection.prepare(
            """
            INSERT OR REPLACE INTO history(
                session, version, time, source, request, visible_path, state, lifecycle, base)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            """)
        // Each entry counts its request and its restore document; SQLite knows a blob's length from the row's
        // header, without reading the blob. Whole segments go (`StateDelta`): asked to drop the entries up to
        // ?2, it keeps those from the whole document that entry ?2 + 1 builds on (none when its chain starts at
        // the session's initial state), so that every delta kept still has its base.
        pruneHistory = try connection.prepare(
            """
            DELETE FROM history WHERE session = ?1 AND version <= ?2 AND version < COALESCE(
                (SELECT MAX(version) FROM history WHERE session = ?1 AND version <= ?2 + 1 AND base IS NULL), 0)
            RETURNING \(Self.entrySize), version
            """)
        historySizes = try connection.prepare(
            "SELECT version, \(Self.entrySize) FROM history WHERE session = ?1 ORDER BY version DESC")
        historyTotal = try connection.prepare(
            "SELECT COALESCE(SUM(\(Self.entrySize)), 0) FROM history WHERE session = ?1")
        insertReply = try connection.prepare(
            """
            INSERT OR REPLACE INTO replies(session, key, seq, fingerprint, status, headers, body)
            VALUES(?1, ?2, (SELECT COALESCE(MAX(seq), 0) + 1 FROM replies WHERE session = ?1), ?3, ?4, ?5, ?6)
            """)
        pruneReplies = try connection.prepare(
            """
            DELETE FROM replies WHERE session = ?1
            AND seq <= (SELECT MAX(seq) FROM replies WHERE session = ?1) - ?2 RETURNING \(Self.replySize)
            """)
        replySizes = try connection.prepare(
            "SELECT seq, \(Self.replySize) FROM replies WHERE session = ?1 ORDER BY seq DESC")
        replyTotal = try connection.prepare(
            "SELECT COALESCE(SUM(\(Self.replySize)), 0) FROM replies WHERE session = ?1")
        dropReplies = try connection.prepare(
            "DELETE FROM replies WHERE session = ?1 AND seq <= ?2 RETURNING \(Self.replySize)")
        touchSession = try connection.prepare(
            "UPDATE sessions SET last_access = max(last_access, ?2), used = max(used, ?3) WHERE id = ?1")
        removals = try [
            "sessions WHERE id", "history WHERE session", "replies WHERE session", "creations WHERE session",
        ]
        .map { table throws(SQLiteError) in try connection.prepare("DELETE FROM \(table) = ?1") }
    }

    func apply(_ writes: [ArchiveWrite]) throws(SQLiteError) {
        for write in writes {
            switch write {
            case .create(let session, let creation):
                try insertSession.bind(
                    .text(session.id), .text(session.app), .integer(session.version), .blob(session.state),
                    .real(session.lastAccess), .integer(session.used ? 1 : 0)
                ).run()
                if let creation {
                    do {
                        try store(creation: creation)
                    } catch  where error.primary == SQLITE_CONSTRAINT {
                        throw .conflict("a session was created under this key already")
                    }
                }
            case .change(let id, let base, let version, let state, let history, let reply):
                try change(id, from: base, to: version, state: state, history: history, reply: reply)
            case .remove(let id):
                for removal in removals { try removal.bind(.text(id)).run() }
                footprints.forget(id)
            case .touch(let id, let lastAccess, let used):
                try touchSession.bind(.text(id), .real(lastAccess), .integer(used ? 1 : 0)).run()
            }
        }
    }

    /// Stores a change of session `id` made on `base`: its history entries, or (without a new version) the current
    /// version's new state, and its reply; then keeps the session within its limits.
    private func change(
        _ id: String, from base: Int, to version: Int, state: [UInt8], history: [StoredChange], reply: StoredReply?
    ) throws(SQLiteError) {
        guard var versions = try versions(of: id) else {
            throw .conflict("session \(id) is no longer stored (it expired or was deleted)")
        }
        guard versions.latest == base else {
            throw .conflict("session \(id) is at version \(versions.latest), not \(base)")
        }
        var added = 0
        for change in history { added += try store(change, of: id, versions: &versions) }
        footprints.add(.history, added, to: id)
        if !history.contains(where: { $0.version == version && !$0.state.isEmpty }) {
            // A change without a new version (app data changed, or a keyed answer): the state of the current
            // version is this one now, in its history entry or, without one, in the row.
            try updateHistoryState.bind(.text(id), .integer(version), .blob(state)).run()
            let inHistory = connection.changes > 0
            if !inHistory {
                try updateState.bind(.text(id), .integer(version), .blob(state)).run()
            }
            if version == versions.latest, inHistory || version == 0 { versions.latestHasDocument = true }
        }
        footprints.setVersions(versions, of: id)
        if !history.isEmpty { try boundHistory(of: id, at: version) }
        if let reply {
            footprints.add(.replies, try store(reply: reply, of: id), to: id)
            try boundReplies(of: id)
        }
    }

    /// The bytes a history entry takes, in SQL: its request and its restore document.
    static let entrySize = "length(request) + COALESCE(length(state), 0)"
    /// The bytes a remembered reply takes, in SQL: its body and its headers.
    static let replySize = "length(body) + length(headers)"

    /// Keeps a session's history within ``StoreLimits``: the entries past its count go at once; once its bytes pass
    /// the budget, the oldest entries go until about three quarters of it are left (so that a busy session is
    /// trimmed once every quarter budget, not at every change). The entry of `version` always stays.
    private func boundHistory(of id: String, at version: Int) throws(SQLiteError) {
        // No entry below its floor: while the count's cut is under it, there is nothing to delete (no statement).
        if let entries = limits.historyEntries, version - entries >= footprints.versions(of: id)?.floor ?? .min {
            try delete(.history, of: id, pruneHistory.bind(.text(id), .integer(version - entries)))
        }
        try trim(
            .history, of: id, budget: limits.historyBytes, total: historyTotal, sizes: historySizes, drop: pruneHistory)
    }

    /// Keeps a session's remembered replies within ``StoreLimits``, as ``boundHistory(of:at:)`` does its history;
    /// the newest reply always stays.
    private func boundReplies(of id: String) throws(SQLiteError) {
        try delete(.replies, of: id, pruneReplies.bind(.text(id), .integer(limits.replies)))
        try trim(.replies, of: id, budget: limits.replyBytes, total: replyTotal, sizes: replySizes, drop: dropReplies)
    }

    /// Once a session's bytes of one kind pass `budget` (its total read with `total` when not known yet), drops
    /// its oldest rows (`sizes` newest first, `drop` deleting up to an order key) until about three quarters of the
    /// budget are left; the newest row always stays.
    private func trim(
        _ kind: SQLiteFootprints.Kind, of id: String, budget: Int, total: SQLiteStatement, sizes: SQLiteStatement,
        drop: SQLiteStatement
    ) throws(SQLiteError) {
        if footprints.bytes(kind, of: id) == nil { footprints.set(kind, try self.total(total, of: id), of: id) }
        guard let bytes = footprints.bytes(kind, of: id), bytes > budget else { return }
        guard let cut = try cutoff(sizes, of: id, keeping: budget / 4 * 3) else { return }
        try delete(kind, of: id, drop.bind(.text(id), .integer(cut)))
    }

    /// Runs a `DELETE … RETURNING size` of session `id`'s rows of `kind`, and takes what it deleted off what the
    /// session is known to keep. A statement deleting history entries returns their version second, and deletes
    /// the oldest entries up to some version (all of them: `pruneHistory` deletes those below the lower of its cut
    /// and the whole document a kept delta needs), so that none is left up to the newest one deleted.
    private func delete(
        _ kind: SQLiteFootprints.Kind, of id: String, _ statement: SQLiteStatement
    ) throws(SQLiteError) {
        defer { statement.reset() }
        var bytes = 0
        var through: Int?
        while try statement.step() {
            bytes += statement.integer(0)
            if kind == .history { through = max(through ?? .min, statement.integer(1)) }
        }
        footprints.add(kind, -bytes, to: id)
        if let through { footprints.entriesDeleted(through: through, of: id) }
    }

    /// The bytes a session keeps in a table, by a `SELECT SUM(size)` statement.
    private func total(_ statement: SQLiteStatement, of id: String) throws(SQLiteError) -> Int {
        defer { statement.reset() }
        return try statement.bind(.text(id)).step() ? statement.integer(0) : 0
    }

    /// Walking a session's rows newest first (`SELECT order, size … ORDER BY order DESC`): the order key of the
    /// newest row that no longer fits in `budget` bytes, counting the rows after it (the newest always fits); nil
    /// when everything fits.
    private func cutoff(_ sizes: SQLiteStatement, of id: String, keeping budget: Int) throws(SQLiteError) -> Int? {
        defer { sizes.reset() }
        try sizes.bind(.text(id))
        var kept = 0
        var first = true
        while try sizes.step() {
            kept += sizes.integer(1)
            if kept > budget && !first { return sizes.integer(0) }
            first = false
        }
        return nil
    }

    /// While the disk is full: hands the pages that deleted rows left back to the disk (a store created with
    /// incremental vacuum; others keep them for their next writes) and empties the write-ahead log, so that the
    /// room deletions made shows on the disk.
    func giveBackFreePages() {
        try? connection.execute("PRAGMA incremental_vacuum")
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// The commit that held these writes failed: what they added or removed is not known any more.
    func rolledBack(_ writes: [ArchiveWrite]) {
        for write in writes {
            switch write {
            case .change(let id, _, _, _, _, _), .remove(let id): footprints.forget(id)
            case .create, .touch: break
            }
        }
    }

    /// Stores a history entry of a session (what the store holds of its `versions` updated); returns the bytes it
    /// takes (its request and its state, whole or as a delta).
    private func store(
        _ change: StoredChange, of session: String, versions: inout SQLiteFootprints.Versions
    ) throws(SQLiteError) -> Int {
        let path = StoredText.path(change.visiblePath)
        var change = change
        if let delta = change.delta, !(try hasState(session, at: delta.base, versions: versions)) { change.delta = nil }
        let state: SQLiteValue =
            if let delta = change.delta { .blob(delta.bytes) } else {
                change.state.isEmpty ? .null : .blob(change.state)
            }
        try insertHistory.bind(
            .text(session), .integer(change.version), .real(change.time), .text(change.source.rawValue),
            .blob(change.request), .text(path), state,
            StoredText.lifecycle(started: change.started, finished: change.finished, redirected: change.redirected).map
            { .text($0) } ?? .null,
            change.delta.map { .integer($0.base) } ?? .null
        ).run()
        versions.floor = min(versions.floor, change.version)
        if change.version >= versions.latest {
            versions.latest = change.version
            versions.latestHasDocument = change.delta != nil || !change.state.isEmpty
        }
        return change.request.count + (change.delta?.bytes ?? change.state).count
    }

    /// What the store holds of session `id`'s versions (read once, then known from this writer's own writes); nil
    /// when the session is not stored.
    private func versions(of id: String) throws(SQLiteError) -> SQLiteFootprints.Versions? {
        if let known = footprints.versions(of: id) { return known }
        defer { storedVersions.reset() }
        guard try storedVersions.bind(.text(id)).step() else { return nil }
        let latest = storedVersions.integer(0)
        let oldest = storedVersions.optionalInteger(1) ?? latest + 1
        return .init(latest: latest, latestHasDocument: false, floor: oldest)
    }

    /// Whether the store holds the document of `version` (a delta may build on it): known without a read when it
    /// is the session's latest version and this writer stored its document.
    private func hasState(
        _ session: String, at version: Int, versions: SQLiteFootprints.Versions
    ) throws(SQLiteError) -> Bool {
        if versions.latestHasDocument, versions.latest == version { return true }
        defer { baseHasState.reset() }
        return try baseHasState.bind(.text(session), .integer(version)).step()
    }

    /// Begins a commit (the write lock taken): when another connection wrote the store since the last one began,
    /// what this writer knew of its sessions is forgotten.
    func begin() throws(SQLiteError) {
        try transaction.begin.run()
        let seen = try transaction.storeDataVersion()
        if seen != lastDataVersion { footprints.forgetAll() }
        lastDataVersion = seen
    }

    /// Stores a reply; returns the bytes it takes.
    private func store(reply: StoredReply, of session: String) throws(SQLiteError) -> Int {
        let headers = StoredText.headers(reply.headers)
        try insertReply.bind(
            .text(session), .text(reply.key), .integer(Int(Int64(bitPattern: reply.fingerprint))),
            .integer(reply.status), .text(headers), .blob(reply.body)
        ).run()
        return headers.utf8.count + reply.body.count
    }

    private func store(creation: StoredReply) throws(SQLiteError) {
        try insertCreation.bind(
            .text(creation.key), .text(creation.session), .integer(Int(Int64(bitPattern: creation.fingerprint))),
            .integer(creation.status), .text(StoredText.headers(creation.headers)), .blob(creation.body)
        ).run()
    }
}
