import SwitchyardSessions

/// The store's tables in PostgreSQL, as forward migrations: the database is at the version in
/// `switchyard_schema`, and a node starting applies every later migration in one transaction. Nodes starting at
/// once take turns (an advisory lock); a database of a newer program is refused.
enum PostgresSchema {
    /// Migration `n` (1-based) brings the database from schema `n - 1` to schema `n`.
    static let migrations: [String] = [
        // 1: sessions (`state`: the restore document of version 0, or of the current version while it has no
        // history entry), their history with each version's restore document, idempotent replies, keyed
        // creations. Rows that belong to a session go with it (ON DELETE CASCADE). Every change updates its
        // session's row: no index on the columns it changes, and room in each page, so that the update stays on
        // its page without touching an index (expiry scans the table instead, every sweep).
        """
        CREATE TABLE switchyard_sessions(
            id text PRIMARY KEY, app text NOT NULL, version bigint NOT NULL, state bytea NOT NULL,
            created double precision NOT NULL, last_access double precision NOT NULL, used boolean NOT NULL)
            WITH (fillfactor = 80);
        CREATE TABLE switchyard_history(
            session text NOT NULL REFERENCES switchyard_sessions(id) ON DELETE CASCADE, version bigint NOT NULL,
            time double precision NOT NULL, source text NOT NULL, request bytea NOT NULL, visible_path text NOT NULL,
            state bytea, PRIMARY KEY(session, version));
        CREATE TABLE switchyard_replies(
            session text NOT NULL REFERENCES switchyard_sessions(id) ON DELETE CASCADE, key text NOT NULL,
            seq bigserial NOT NULL, fingerprint bigint NOT NULL, status bigint NOT NULL, headers text NOT NULL,
            body bytea NOT NULL, PRIMARY KEY(session, key));
        CREATE INDEX switchyard_replies_by_seq ON switchyard_replies(session, seq);
        CREATE TABLE switchyard_creations(
            key text PRIMARY KEY, session text NOT NULL REFERENCES switchyard_sessions(id) ON DELETE CASCADE,
            fingerprint bigint NOT NULL, status bigint NOT NULL, headers text NOT NULL, body bytea NOT NULL);
        CREATE INDEX switchyard_creations_by_session ON switchyard_creations(session);
        """,
        // 2: the coordinators each change started and finished (JSON, NULL when none; earlier rows have none).
        "ALTER TABLE switchyard_history ADD COLUMN lifecycle text;",
        // 3: what each session keeps, bounded by StoreLimits: the bytes of each history entry (request body and
        // restore document) and of each reply (headers and body), and their running totals in the session's row,
        // which every write keeps (so that a change finds out it passed a budget without reading the history).
        // Existing rows get their sizes here.
        """
        ALTER TABLE switchyard_history ADD COLUMN bytes bigint NOT NULL
            GENERATED ALWAYS AS (octet_length(request) + COALESCE(octet_length(state), 0)) STORED;
        ALTER TABLE switchyard_replies ADD COLUMN bytes bigint NOT NULL
            GENERATED ALWAYS AS (octet_length(headers) + octet_length(body)) STORED;
        ALTER TABLE switchyard_sessions ADD COLUMN history_bytes bigint NOT NULL DEFAULT 0,
            ADD COLUMN reply_count bigint NOT NULL DEFAULT 0, ADD COLUMN reply_bytes bigint NOT NULL DEFAULT 0;
        UPDATE switchyard_sessions s SET history_bytes = h.bytes
            FROM (SELECT session, sum(bytes) AS bytes FROM switchyard_history GROUP BY session) h
            WHERE h.session = s.id;
        UPDATE switchyard_sessions s SET reply_count = r.count, reply_bytes = r.bytes
            FROM (SELECT session, count(*) AS count, sum(bytes) AS bytes FROM switchyard_replies GROUP BY session) r
            WHERE r.session = s.id;
        """,
        // 4: the app versions published through the admin API, shared by every node: one row once anything was
        // published, its generation raised by every write.
        """
        CREATE TABLE switchyard_registry(
            id integer PRIMARY KEY CHECK (id = 1), generation bigint NOT NULL, document bytea NOT NULL);
        """,
        // 5: a history entry's state as a delta (`StateDelta`) from the state of version `base`; NULL: the whole
        // restore document (every earlier row). A node of schema 4 starting refuses this database.
        "ALTER TABLE switchyard_history ADD COLUMN base bigint;",
        // 6: the checksum (`StateDelta.checksum(of:)`) of the session's current restore document, which a delta's
        // base must match when it is written (another node may have rewritten that document since: a change that
        // made no version); NULL: not known (a new session, or one an older node wrote), and no delta builds on it.
        // A change and a change without a new version set it; other updates keep it. Nodes that keep it say so on
        // each connection (`switchyard.checksums = on`); a node of an older schema still running while this one
        // migrates does not, and the trigger forgets the checksum of any row such a node updates. (A connection
        // pooler that moves a node's transactions between server connections would mix them up: not supported,
        // as LISTEN already needs a session of its own.)
        """
        ALTER TABLE switchyard_sessions ADD COLUMN checksum bigint;
        CREATE FUNCTION switchyard_forget_checksum() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN NEW.checksum := NULL; RETURN NEW; END $$;
        CREATE TRIGGER switchyard_sessions_older_writer BEFORE UPDATE ON switchyard_sessions FOR EACH ROW
            WHEN (NEW.checksum IS NOT NULL AND current_setting('switchyard.checksums', true) IS DISTINCT FROM 'on')
            EXECUTE FUNCTION switchyard_forget_checksum();
        """,
    ]

    /// The schema this program writes.
    static var current: Int { migrations.count }

    /// An arbitrary key for the advisory lock nodes take while they migrate.
    private static let migrationLock = 0x5357_5954_4348  // "SWITCH"

    /// How long waiting for another node's migration, and migrating, may take (a migration may rewrite tables):
    /// longer than a request's round trip.
    static let migrationTimeout = Duration.seconds(600)

    /// Brings the database to ``current``; a database of a newer schema is ``ArchiveError/unreadable(_:)``.
    static func migrate(_ connection: PostgresConnection) throws(ArchiveError) {
        let deadline = ContinuousClock.now + migrationTimeout
        do throws(PostgresError) {
            // The connection's own statement_timeout is a request's.
            try connection.execute("SET statement_timeout = 0")
            try connection.execute("SELECT pg_advisory_lock(\(migrationLock))", until: deadline)
        } catch {
            throw error.archiveError
        }
        defer { _ = try? connection.execute("SELECT pg_advisory_unlock(\(migrationLock))") }
        let found: Int
        do throws(PostgresError) {
            try connection.execute("CREATE TABLE IF NOT EXISTS switchyard_schema(version bigint NOT NULL)")
            // Simple queries answer in text.
            let rows = try connection.execute("SELECT version FROM switchyard_schema").rows
            found = rows.first?.first.flatMap { $0 }.flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
        } catch {
            throw error.archiveError
        }
        guard found <= current else {
            throw .unreadable(
                "the database was written by a newer Switchyard (schema \(found); this one reads up to \(current))")
        }
        guard found < current else { return }
        do throws(PostgresError) {
            try connection.execute(
                "BEGIN;\n" + migrations[found...].joined(separator: "\n")
                    + "\nDELETE FROM switchyard_schema; INSERT INTO switchyard_schema VALUES(\(current));\nCOMMIT;",
                until: deadline)
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error.archiveError
        }
    }
}
