/// Every statement the archive runs, prepared on each connection when first used.
enum PostgresStatements {
    // MARK: Writes

    static let insertSession = PostgresStatement(
        "sy_insert_session",
        """
        INSERT INTO switchyard_sessions(id, app, version, state, created, last_access, used)
        VALUES($1, $2, $3, $4, $5, $5, $6)
        """, [.text, .text, .int8, .bytea, .float8, .bool])
    static let insertCreation = PostgresStatement(
        "sy_insert_creation",
        """
        INSERT INTO switchyard_creations(key, session, fingerprint, status, headers, body)
        VALUES($1, $2, $3, $4, $5, $6)
        """, [.text, .text, .int8, .int8, .text, .bytea])
    /// The compare-and-set: fails with SQLSTATE SY409 unless the session is at `$2`.
    static let advance = PostgresStatement(
        "sy_advance", "SELECT switchyard_advance($1, $2, $3, $4)", [.text, .int8, .int8, .float8])
    static let insertHistory = PostgresStatement(
        "sy_insert_history",
        """
        INSERT INTO switchyard_history(session, version, time, source, request, visible_path, state)
        VALUES($1, $2, $3, $4, $5, $6, $7)
        ON CONFLICT (session, version) DO UPDATE SET time = EXCLUDED.time, source = EXCLUDED.source,
            request = EXCLUDED.request, visible_path = EXCLUDED.visible_path, state = EXCLUDED.state
        """, [.text, .int8, .float8, .text, .bytea, .text, .bytea])
    /// A change without a new version: the current version's state is this one now, in its history entry or,
    /// without one, in the session's row.
    static let replaceState = PostgresStatement(
        "sy_replace_state",
        """
        WITH entry AS (UPDATE switchyard_history SET state = $3 WHERE session = $1 AND version = $2 RETURNING 1)
        UPDATE switchyard_sessions SET state = $3 WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM entry)
        """, [.text, .int8, .bytea])
    static let pruneHistory = PostgresStatement(
        "sy_prune_history", "DELETE FROM switchyard_history WHERE session = $1 AND version <= $2", [.text, .int8])
    static let upsertReply = PostgresStatement(
        "sy_upsert_reply",
        """
        INSERT INTO switchyard_replies(session, key, fingerprint, status, headers, body) VALUES($1, $2, $3, $4, $5, $6)
        ON CONFLICT (session, key) DO UPDATE SET seq = DEFAULT, fingerprint = EXCLUDED.fingerprint,
            status = EXCLUDED.status, headers = EXCLUDED.headers, body = EXCLUDED.body
        """, [.text, .text, .int8, .int8, .text, .bytea])
    /// Keeps a session's latest `$2` replies.
    static let pruneReplies = PostgresStatement(
        "sy_prune_replies",
        """
        DELETE FROM switchyard_replies WHERE session = $1 AND seq < (
            SELECT MIN(seq) FROM (SELECT seq FROM switchyard_replies WHERE session = $1 ORDER BY seq DESC LIMIT $2) kept)
        """, [.text, .int8])
    static let removeSession = PostgresStatement(
        "sy_remove_session", "DELETE FROM switchyard_sessions WHERE id = $1", [.text])
    static let touchSession = PostgresStatement(
        "sy_touch_session",
        "UPDATE switchyard_sessions SET last_access = GREATEST(last_access, $2), used = used OR $3 WHERE id = $1",
        [.text, .float8, .bool])
    /// Deletes up to 1000 sessions idle since `$2` (or, never used, since `$1`); returns their ids.
    static let expire = PostgresStatement(
        "sy_expire",
        """
        DELETE FROM switchyard_sessions WHERE id IN (
            SELECT id FROM switchyard_sessions WHERE last_access < $1 AND (last_access < $2 OR NOT used)
            LIMIT 1000 FOR UPDATE SKIP LOCKED)
        RETURNING id
        """, [.float8, .float8])
    static let notify = PostgresStatement("sy_notify", "SELECT pg_notify($1, $2)", [.text, .text])

    // MARK: Reads

    /// A session at its version, with that version's state.
    static let session = PostgresStatement(
        "sy_session",
        """
        SELECT s.app, s.version, COALESCE(h.state, s.state), s.last_access, s.used
        FROM switchyard_sessions s
        LEFT JOIN switchyard_history h ON h.session = s.id AND h.version = s.version
        WHERE s.id = $1
        """, [.text])
    /// A session unless it is at version `$2`: then only its version (and no state).
    static let sessionUnless = PostgresStatement(
        "sy_session_unless",
        """
        SELECT s.app, s.version, CASE WHEN s.version <> $2 THEN COALESCE(h.state, s.state) END, s.last_access, s.used
        FROM switchyard_sessions s
        LEFT JOIN switchyard_history h ON h.session = s.id AND h.version = s.version AND s.version <> $2
        WHERE s.id = $1
        """, [.text, .int8])
    /// A session's replies unless it is at version `$2`.
    static let repliesUnless = PostgresStatement(
        "sy_replies_unless",
        """
        SELECT key, fingerprint, status, headers, body FROM switchyard_replies
        WHERE session = $1 AND EXISTS (SELECT 1 FROM switchyard_sessions WHERE id = $1 AND version <> $2)
        ORDER BY seq
        """, [.text, .int8])
    static let replies = PostgresStatement(
        "sy_replies",
        "SELECT key, fingerprint, status, headers, body FROM switchyard_replies WHERE session = $1 ORDER BY seq",
        [.text])
    static let version = PostgresStatement(
        "sy_version", "SELECT version FROM switchyard_sessions WHERE id = $1", [.text])
    /// `$1`: ids separated by commas.
    static let versions = PostgresStatement(
        "sy_versions",
        "SELECT id, version FROM switchyard_sessions WHERE id = ANY(string_to_array($1, ','))", [.text])
    static let latestHistory = PostgresStatement(
        "sy_latest_history",
        """
        SELECT version, time, source, request, visible_path FROM switchyard_history WHERE session = $1
        ORDER BY version DESC LIMIT $2
        """, [.text, .int8])
    static let historyAfter = PostgresStatement(
        "sy_history_after",
        """
        SELECT version, time, source, request, visible_path FROM switchyard_history
        WHERE session = $1 AND version > $2 ORDER BY version LIMIT $3
        """, [.text, .int8, .int8])
    static let versionState = PostgresStatement(
        "sy_version_state",
        """
        SELECT state FROM switchyard_history WHERE session = $1 AND version = $2
        UNION ALL SELECT state FROM switchyard_sessions WHERE id = $1 AND $2 = 0
        """, [.text, .int8])
    static let creation = PostgresStatement(
        "sy_creation", "SELECT session, fingerprint, status, headers, body FROM switchyard_creations WHERE key = $1",
        [.text])
}
