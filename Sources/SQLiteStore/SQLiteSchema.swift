import SwitchyardSessions

/// The archive's tables, as forward migrations: a database is at schema `user_version`, and opening it applies
/// every later migration in one transaction. A database from a newer program (a higher version) is refused.
enum SQLiteSchema {
    /// Migration `n` (1-based) brings a database from schema `n - 1` to schema `n`.
    static let migrations: [String] = [
        // 1: sessions with their restore document, history, idempotent replies, keyed creations. Ordinary rowid
        // tables: their rows hold kilobytes of JSON, which WITHOUT ROWID tables store several times less densely.
        """
        CREATE TABLE sessions(
            id TEXT PRIMARY KEY, app TEXT NOT NULL, version INTEGER NOT NULL, state BLOB NOT NULL,
            created REAL NOT NULL, last_access REAL NOT NULL, used INTEGER NOT NULL);
        CREATE INDEX sessions_by_last_access ON sessions(last_access);
        CREATE TABLE history(
            session TEXT NOT NULL, version INTEGER NOT NULL, time REAL NOT NULL, source TEXT NOT NULL,
            request BLOB NOT NULL, visible_path TEXT NOT NULL, PRIMARY KEY(session, version));
        CREATE TABLE replies(
            session TEXT NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL, fingerprint INTEGER NOT NULL,
            status INTEGER NOT NULL, headers TEXT NOT NULL, body BLOB NOT NULL, PRIMARY KEY(session, key));
        CREATE TABLE creations(
            key TEXT PRIMARY KEY, session TEXT NOT NULL, fingerprint INTEGER NOT NULL, status INTEGER NOT NULL,
            headers TEXT NOT NULL, body BLOB NOT NULL);
        CREATE INDEX creations_by_session ON creations(session);
        """,
        // 2: reading a session as it was: each history entry keeps the restore document of its version, and each
        // session the one of its version 0. Rows written before have none: those versions cannot be read back.
        """
        ALTER TABLE history ADD COLUMN state BLOB;
        ALTER TABLE sessions ADD COLUMN initial_state BLOB;
        """,
        // 3: the coordinators each change started and finished (JSON, NULL when none; earlier rows have none).
        "ALTER TABLE history ADD COLUMN lifecycle TEXT;",
        // 4: the app versions published through the admin API (one row, once anything was published).
        "CREATE TABLE registry(generation INTEGER NOT NULL, document BLOB NOT NULL);",
        // 5: a history entry's state as a delta (`StateDelta`) from the state of version `base`; NULL: the whole
        // restore document (every earlier row). A program of schema 4 would read a delta as a document: it refuses
        // this database instead.
        "ALTER TABLE history ADD COLUMN base INTEGER;",
        // 6: an app's sessions in id order without reading their rows (analytics lists them a page at a time, and a
        // reload of an app's definition checks them): written once per session, not per change.
        "CREATE INDEX sessions_by_app ON sessions(app, id);",
    ]

    /// A session's version (`?1` its id): that of its latest history entry, or its row's when it has none.
    static let versionQuery =
        "SELECT COALESCE((SELECT MAX(version) FROM history WHERE session = ?1), version) FROM sessions WHERE id = ?1"

    /// The schema this program writes.
    static var current: Int { migrations.count }

    /// Reads every page of the database once (`PRAGMA quick_check`): corrupt pages are found at start, not by the
    /// request that first reads them.
    static func check(_ connection: SQLiteConnection) throws(ArchiveError) {
        let verdict: String?
        do {
            verdict = try connection.text("PRAGMA quick_check(1)")
        } catch {
            throw error.isUnreadable ? .unreadable("\(error)") : error.archiveError
        }
        guard verdict == "ok" else {
            throw .unreadable(
                "it is damaged (\(verdict ?? "no verdict")); recover what is readable with "
                    + "`sqlite3 FILE .recover | sqlite3 NEW`, or move it aside to start with no sessions")
        }
    }

    /// Writes the schema version back (a write that changes nothing): true when the store can be written, false
    /// when the disk is full; any other failure (a read-only file or folder) is thrown.
    static func canWrite(_ connection: SQLiteConnection) throws(ArchiveError) -> Bool {
        do {
            try connection.execute("BEGIN IMMEDIATE; PRAGMA user_version = \(current); COMMIT")
            return true
        } catch {
            if connection.inTransaction { try? connection.execute("ROLLBACK") }
            if error.primary == 13 { return false }  // SQLITE_FULL
            throw error.archiveError
        }
    }

    /// Brings the database to ``current``; a database of a newer schema is ``ArchiveError/unreadable(_:)``.
    static func migrate(_ connection: SQLiteConnection) throws(ArchiveError) {
        do {
            try connection.execute("BEGIN IMMEDIATE")
            let found = try connection.integer("PRAGMA user_version")
            guard found >= 0, found <= current else {
                try connection.execute("ROLLBACK")
                throw ArchiveError.unreadable(
                    "the data was written by a newer Switchyard (schema \(found); this one reads up to \(current))")
            }
            guard found < current else {
                // Nothing to write: a store on a full disk still opens to be read.
                try connection.execute("ROLLBACK")
                return
            }
            for migration in migrations[found...] {
                try connection.execute(migration)
            }
            try connection.execute("PRAGMA user_version = \(current)")
            try connection.execute("COMMIT")
        } catch let error as SQLiteError {
            if connection.inTransaction { try? connection.execute("ROLLBACK") }
            throw error.archiveError
        } catch let error as ArchiveError {
            throw error
        } catch {
            throw .unavailable("\(error)")
        }
    }
}
