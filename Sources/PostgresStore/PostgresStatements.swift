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
    /// The compare-and-set from version `$2` to `$3`, with the history entry of version `$3` when `$9` (a change
    /// that made no version has none). When the session is not at `$2` it divides by the zero rows it moved:
    /// SQLSTATE 22012 is a conflict (no other statement of the store divides), and the transaction is aborted.
    static let advance = PostgresStatement(
        "sy_advance",
        """
        WITH moved AS (
            UPDATE switchyard_sessions
            SET version = $3, used = used OR $3 > $2, last_access = GREATEST(last_access, $4)
            WHERE id = $1 AND version = $2 RETURNING id),
        entry AS (
            INSERT INTO switchyard_history(session, version, time, source, request, visible_path, state, lifecycle)
            SELECT id, $3, $4, $5, $6, $7, $8, NULLIF($9, '') FROM moved WHERE $10
            RETURNING 1)
        SELECT 1 / (SELECT count(*)::int FROM moved) + (SELECT count(*)::int FROM entry)
        """, [.text, .int8, .int8, .float8, .text, .bytea, .text, .bytea, .text, .bool])
    /// An earlier version's entry, when one change made several versions.
    static let insertHistory = PostgresStatement(
        "sy_insert_history",
        """
        INSERT INTO switchyard_history(session, version, time, source, request, visible_path, state, lifecycle)
        VALUES($1, $2, $3, $4, $5, $6, $7, NULLIF($8, ''))
        """, [.text, .int8, .float8, .text, .bytea, .text, .bytea, .text])
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

    /// A session at its version with that version's state and its replies (JSON, oldest first:
    /// `[[key, fingerprint, status, headers, body in base64], …]`), unless it is at version `$2`: then only its
    /// version, and the reply under key `$3` (none for an empty key) in the same JSON. (`$2` = -1 reads it whatever
    /// its version.)
    static let session = PostgresStatement(
        "sy_session",
        """
        SELECT s.app, s.version, CASE WHEN s.version <> $2 THEN COALESCE(h.state, s.state) END, s.last_access,
            s.used,
            (SELECT json_agg(json_build_array(r.key, r.fingerprint::text, r.status, r.headers,
                    encode(r.body, 'base64')) ORDER BY r.seq)
                FROM switchyard_replies r WHERE r.session = s.id AND (s.version <> $2 OR r.key = $3))
        FROM switchyard_sessions s
        LEFT JOIN switchyard_history h ON h.session = s.id AND h.version = s.version AND s.version <> $2
        WHERE s.id = $1
        """, [.text, .int8, .text])
    static let version = PostgresStatement(
        "sy_version", "SELECT version FROM switchyard_sessions WHERE id = $1", [.text])
    /// `$1`: ids separated by commas.
    static let versions = PostgresStatement(
        "sy_versions",
        "SELECT id, version FROM switchyard_sessions WHERE id = ANY(string_to_array($1, ','))", [.text])
    static let latestHistory = PostgresStatement(
        "sy_latest_history",
        """
        SELECT version, time, source, request, visible_path, lifecycle FROM switchyard_history WHERE session = $1
        ORDER BY version DESC LIMIT $2
        """, [.text, .int8])
    static let historyAfter = PostgresStatement(
        "sy_history_after",
        """
        SELECT version, time, source, request, visible_path, lifecycle FROM switchyard_history
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
