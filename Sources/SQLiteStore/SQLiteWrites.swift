internal import CSQLite
import SwitchyardServer

/// The writer's prepared statements and how each ``ArchiveWrite`` becomes rows. Used only by the caller leading a
/// commit (``SQLiteWriter``).
final class SQLiteWrites {
    let connection: SQLiteConnection
    private let historyRetention: Int?
    private let replyLimit: Int
    private let insertSession: SQLiteStatement
    private let insertCreation: SQLiteStatement
    private let storedVersion: SQLiteStatement
    private let updateState: SQLiteStatement
    private let updateHistoryState: SQLiteStatement
    private let insertHistory: SQLiteStatement
    private let pruneHistory: SQLiteStatement
    private let insertReply: SQLiteStatement
    private let pruneReplies: SQLiteStatement
    private let touchSession: SQLiteStatement
    private let removals: [SQLiteStatement]

    let begin: SQLiteStatement
    let commit: SQLiteStatement
    let rollback: SQLiteStatement
    let savepoint: SQLiteStatement
    let release: SQLiteStatement
    let rollbackToSavepoint: SQLiteStatement

    init(_ connection: SQLiteConnection, historyRetention: Int?, replyLimit: Int) throws(SQLiteError) {
        self.connection = connection
        begin = try connection.prepare("BEGIN IMMEDIATE")
        commit = try connection.prepare("COMMIT")
        rollback = try connection.prepare("ROLLBACK")
        savepoint = try connection.prepare("SAVEPOINT batch")
        release = try connection.prepare("RELEASE batch")
        rollbackToSavepoint = try connection.prepare("ROLLBACK TO batch")
        self.historyRetention = historyRetention
        self.replyLimit = replyLimit
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
        // of its creation, its last access is recorded by the sweeps' `.touch`). The version is only read, to
        // refuse a change of a session that is no longer stored, or no longer at the change's base version.
        storedVersion = try connection.prepare(SQLiteSchema.versionQuery)
        updateHistoryState = try connection.prepare(
            "UPDATE history SET state = ?3 WHERE session = ?1 AND version = ?2")
        updateState = try connection.prepare(
            "UPDATE sessions SET state = ?3, initial_state = CASE WHEN ?2 = 0 THEN ?3 ELSE initial_state END WHERE id = ?1"
        )
        insertHistory = try connection.prepare(
            """
            INSERT OR REPLACE INTO history(session, version, time, source, request, visible_path, state, lifecycle)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """)
        pruneHistory = try connection.prepare("DELETE FROM history WHERE session = ?1 AND version <= ?2")
        insertReply = try connection.prepare(
            """
            INSERT OR REPLACE INTO replies(session, key, seq, fingerprint, status, headers, body)
            VALUES(?1, ?2, (SELECT COALESCE(MAX(seq), 0) + 1 FROM replies WHERE session = ?1), ?3, ?4, ?5, ?6)
            """)
        pruneReplies = try connection.prepare(
            """
            DELETE FROM replies WHERE session = ?1
            AND seq <= (SELECT MAX(seq) FROM replies WHERE session = ?1) - ?2
            """)
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
                let exists = try storedVersion.bind(.text(id)).step()
                let stored = exists ? storedVersion.integer(0) : nil
                storedVersion.reset()
                guard let stored else {
                    throw .conflict("session \(id) is no longer stored (it expired or was deleted)")
                }
                guard stored == base else { throw .conflict("session \(id) is at version \(stored), not \(base)") }
                for change in history { try store(change, of: id) }
                if !history.contains(where: { $0.version == version && !$0.state.isEmpty }) {
                    // A change without a new version (app data changed, or a keyed answer): the state of the
                    // current version is this one now, in its history entry or, without one, in the row.
                    try updateHistoryState.bind(.text(id), .integer(version), .blob(state)).run()
                    if connection.changes == 0 {
                        try updateState.bind(.text(id), .integer(version), .blob(state)).run()
                    }
                }
                if let retention = historyRetention {
                    try pruneHistory.bind(.text(id), .integer(version - retention)).run()
                }
                if let reply {
                    try store(reply: reply, of: id)
                    try pruneReplies.bind(.text(id), .integer(replyLimit)).run()
                }
            case .remove(let id):
                for removal in removals { try removal.bind(.text(id)).run() }
            case .touch(let id, let lastAccess, let used):
                try touchSession.bind(.text(id), .real(lastAccess), .integer(used ? 1 : 0)).run()
            }
        }
    }

    private func store(_ change: StoredChange, of session: String) throws(SQLiteError) {
        let path = StoredText.path(change.visiblePath)
        try insertHistory.bind(
            .text(session), .integer(change.version), .real(change.time), .text(change.source),
            .blob(change.request), .text(path), change.state.isEmpty ? .null : .blob(change.state),
            StoredText.lifecycle(started: change.started, finished: change.finished).map { .text($0) } ?? .null
        ).run()
    }

    private func store(reply: StoredReply, of session: String) throws(SQLiteError) {
        try insertReply.bind(
            .text(session), .text(reply.key), .integer(Int(Int64(bitPattern: reply.fingerprint))),
            .integer(reply.status), .text(StoredText.headers(reply.headers)), .blob(reply.body)
        ).run()
    }

    private func store(creation: StoredReply) throws(SQLiteError) {
        try insertCreation.bind(
            .text(creation.key), .text(creation.session), .integer(Int(Int64(bitPattern: creation.fingerprint))),
            .integer(creation.status), .text(StoredText.headers(creation.headers)), .blob(creation.body)
        ).run()
    }
}
