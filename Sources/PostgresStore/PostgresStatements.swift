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
    /// The compare-and-set from version `$2` to `$3`, with the history entry of version `$3` when `$10` (a change
    /// that made no version has none), and the pruning of the session's history to its limits, in one statement.
    ///
    /// The entries the change writes hold `$11` bytes, all newer than what is stored. Entries up to version `$12`
    /// go (the count limit); when the history would hold more than `$13` bytes, so do the oldest down to `$14`
    /// bytes (a chunk: the history is read only when its budget is passed, which the session's running total
    /// tells); the current version never; and no entry that a kept delta builds on (whole segments go, see
    /// `StateDelta`: only the entries before the whole document that the oldest entry left builds on). `$16` is the
    /// oldest entry the change writes (the statement's reads do not see it), `$17` whether it is whole; the new
    /// entry's state is a delta from version `$15` (-1: a whole document; a delta builds on version `$2`), made
    /// against a document of checksum `$19`; `$18` is the checksum of the session's new document; `$20` is when
    /// the change's latest entry that is a use was made (a migration is not), the session's last use. When the
    /// session is not at `$2` it divides by the zero rows it moved: SQLSTATE 22012 is a conflict (no other
    /// statement of the store divides). So is a delta made against a document other than the session's (another
    /// node rewrote it without a new version: the change runs again on the stored state, and that node's change
    /// is not lost). When the session's checksum is not known, a delta takes the logarithm of zero: SQLSTATE
    /// 2201E, and the change is written again with whole documents. Either aborts the transaction.
    /// The session's row is locked first (as a deletion locks it before its rows), so that concurrent writers of
    /// a session queue on it (and its checksum is read as last committed).
    static let advance = PostgresStatement(
        "sy_advance",
        """
        WITH base AS (
            SELECT id, history_bytes + $11 > $13 AS over, checksum FROM switchyard_sessions
            WHERE id = $1 AND version = $2 FOR UPDATE),
        cut AS (
            SELECT max(version) AS version FROM (
                SELECT version, $11 + sum(bytes) OVER (ORDER BY version DESC) AS newer FROM switchyard_history
                WHERE session = $1 AND (SELECT over FROM base)) entries
            WHERE newer > $14),
        doomed AS (SELECT GREATEST($12, (SELECT version FROM cut)) AS version),
        oldest AS (
            SELECT LEAST($16, (
                SELECT min(version) FROM switchyard_history
                WHERE session = $1 AND version > (SELECT version FROM doomed))) AS version),
        anchor AS (
            SELECT COALESCE(GREATEST(
                (SELECT max(version) FROM switchyard_history
                    WHERE session = $1 AND version <= (SELECT version FROM oldest) AND base IS NULL),
                CASE WHEN $17 AND $16 <= (SELECT version FROM oldest) THEN $16 END), 0) AS version),
        gone AS (
            DELETE FROM switchyard_history
            WHERE session = (SELECT id FROM base) AND version < $3
                AND version <= (SELECT version FROM doomed) AND version < (SELECT version FROM anchor)
            RETURNING bytes),
        moved AS (
            UPDATE switchyard_sessions
            SET version = $3, used = used OR $3 > $2, last_access = GREATEST(last_access, $20), checksum = $18,
                history_bytes = history_bytes + $11 - COALESCE((SELECT sum(bytes) FROM gone), 0)
            WHERE id = (SELECT id FROM base) RETURNING id),
        entry AS (
            INSERT INTO switchyard_history(
                session, version, time, source, request, visible_path, state, lifecycle, base)
            SELECT id, $3, $4, $5, $6, $7, $8, NULLIF($9, ''), NULLIF($15, -1) FROM moved WHERE $10
            RETURNING 1)
        SELECT 1 / (SELECT count(*)::int FROM moved) + (SELECT count(*)::int FROM entry)
            + 1 / (CASE WHEN $15 >= 0 AND (SELECT checksum FROM base) <> $19 THEN 0 ELSE 1 END)
            + ln(CASE WHEN $15 >= 0 AND EXISTS (SELECT 1 FROM moved) AND (SELECT checksum FROM base) IS NULL
                THEN 0::float8 ELSE 1::float8 END)::int
        """,
        [
            .text, .int8, .int8, .float8, .text, .bytea, .text, .bytea, .text, .bool, .int8, .int8, .int8, .int8, .int8,
            .int8, .bool, .int8, .int8,
        ])
    /// An earlier version's entry, when one change made several versions (a whole document).
    static let insertHistory = PostgresStatement(
        "sy_insert_history",
        """
        INSERT INTO switchyard_history(session, version, time, source, request, visible_path, state, lifecycle)
        VALUES($1, $2, $3, $4, $5, $6, $7, NULLIF($8, ''))
        """, [.text, .int8, .float8, .text, .bytea, .text, .bytea, .text])
    /// A change without a new version: the current version's state is this one now (of checksum `$4`), in its
    /// history entry (the session's history bytes follow) or, without one, in the session's row.
    static let replaceState = PostgresStatement(
        "sy_replace_state",
        """
        WITH old AS (SELECT bytes FROM switchyard_history WHERE session = $1 AND version = $2),
        entry AS (
            UPDATE switchyard_history SET state = $3, base = NULL WHERE session = $1 AND version = $2 RETURNING bytes)
        UPDATE switchyard_sessions
        SET state = CASE WHEN EXISTS (SELECT 1 FROM entry) THEN state ELSE $3 END, checksum = $4,
            history_bytes = history_bytes + COALESCE((SELECT bytes FROM entry), 0) - COALESCE((SELECT bytes FROM old), 0)
        WHERE id = $1
        """, [.text, .int8, .bytea, .int8])
    /// After ``replaceState``, which may have grown the current version's entry: when the session's history holds
    /// more than `$3` bytes, deletes the oldest entries down to `$4` bytes, never the current version `$2` nor an
    /// entry a kept delta builds on.
    static let pruneHistory = PostgresStatement(
        "sy_prune_history",
        """
        WITH cut AS (
            SELECT max(version) AS version FROM (
                SELECT version, sum(bytes) OVER (ORDER BY version DESC) AS newer FROM switchyard_history
                WHERE session = $1
                    AND EXISTS (SELECT 1 FROM switchyard_sessions WHERE id = $1 AND history_bytes > $3)) entries
            WHERE newer > $4),
        gone AS (
            DELETE FROM switchyard_history WHERE session = $1 AND version < $2 AND version <= (SELECT version FROM cut)
                AND version < COALESCE((
                    SELECT max(version) FROM switchyard_history WHERE session = $1
                        AND version <= (SELECT version FROM cut) + 1 AND base IS NULL), 0)
            RETURNING bytes)
        UPDATE switchyard_sessions SET history_bytes = history_bytes - (SELECT sum(bytes) FROM gone)
        WHERE id = $1 AND EXISTS (SELECT 1 FROM gone)
        """, [.text, .int8, .int8, .int8])
    /// Stores a reply under key `$2` (a key stored already: replaced, and the newest), and keeps the session's
    /// replies to its limits: the latest `$7`, and when they would hold more than `$8` bytes, the newest down to
    /// `$9` bytes (reading the replies only then); the reply stored now always stays. The session's running count
    /// and bytes follow. (The replies read here are those before this one is stored, the statement's snapshot.)
    static let upsertReply = PostgresStatement(
        "sy_upsert_reply",
        """
        WITH old AS (SELECT bytes FROM switchyard_replies WHERE session = $1 AND key = $2),
        put AS (
            INSERT INTO switchyard_replies(session, key, fingerprint, status, headers, body)
            VALUES($1, $2, $3, $4, $5, $6)
            ON CONFLICT (session, key) DO UPDATE SET seq = DEFAULT, fingerprint = EXCLUDED.fingerprint,
                status = EXCLUDED.status, headers = EXCLUDED.headers, body = EXCLUDED.body
            RETURNING bytes),
        kept AS (
            SELECT reply_count + 1 - (SELECT count(*) FROM old) AS count,
                reply_bytes + (SELECT bytes FROM put) - COALESCE((SELECT bytes FROM old), 0) AS bytes
            FROM switchyard_sessions WHERE id = $1),
        doomed AS (
            (SELECT seq FROM switchyard_replies WHERE session = $1 AND key <> $2 AND (SELECT count FROM kept) > $7
                ORDER BY seq LIMIT GREATEST((SELECT count FROM kept) - $7, 0))
            UNION
            SELECT seq FROM (
                SELECT seq, (SELECT bytes FROM put) + sum(bytes) OVER (ORDER BY seq DESC) AS newer
                FROM switchyard_replies WHERE session = $1 AND key <> $2 AND (SELECT bytes FROM kept) > $8) replies
            WHERE newer > $9),
        gone AS (
            DELETE FROM switchyard_replies WHERE session = $1 AND seq IN (SELECT seq FROM doomed) RETURNING bytes)
        UPDATE switchyard_sessions
        SET reply_count = (SELECT count FROM kept) - (SELECT count(*) FROM gone),
            reply_bytes = (SELECT bytes FROM kept) - COALESCE((SELECT sum(bytes) FROM gone), 0)
        WHERE id = $1
        """, [.text, .text, .int8, .int8, .text, .bytea, .int8, .int8, .int8])
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
    /// its version.) Then, when its state is a delta: the version it is a delta from, the entries it builds on (JSON,
    /// newest first: `[[version, base or null, state in base64], …]`, down to the nearest whole document), and the
    /// session row's document (version 0's) when no whole entry comes before: one round trip, as for a whole one.
    static let session = PostgresStatement(
        "sy_session",
        """
        SELECT s.app, s.version, CASE WHEN s.version <> $2 THEN COALESCE(h.state, s.state) END, s.last_access,
            s.used,
            (SELECT json_agg(json_build_array(r.key, r.fingerprint::text, r.status, r.headers,
                    encode(r.body, 'base64')) ORDER BY r.seq)
                FROM switchyard_replies r WHERE r.session = s.id AND (s.version <> $2 OR r.key = $3)),
            h.base,
            CASE WHEN h.base IS NOT NULL THEN (
                SELECT json_agg(json_build_array(c.version, c.base, encode(c.state, 'base64')) ORDER BY c.version DESC)
                FROM switchyard_history c
                WHERE c.session = s.id AND c.version < s.version AND c.version >= COALESCE((
                    SELECT max(version) FROM switchyard_history
                    WHERE session = s.id AND version < s.version AND base IS NULL), 0)) END,
            CASE WHEN h.base IS NOT NULL AND NOT EXISTS (
                SELECT 1 FROM switchyard_history
                WHERE session = s.id AND version > 0 AND version < s.version AND base IS NULL) THEN s.state END
        FROM switchyard_sessions s
        LEFT JOIN switchyard_history h ON h.session = s.id AND h.version = s.version AND s.version <> $2
        WHERE s.id = $1
        """, [.text, .int8, .text])
    static let version = PostgresStatement(
        "sy_version", "SELECT version FROM switchyard_sessions WHERE id = $1", [.text])
    /// `$1`: the app, `$2`: the id to start after, `$3`: how many. In the primary key's order: session ids are
    /// lowercase hexadecimal, which every collation orders as bytes, so the pages walk the index once.
    static let sessionsOfApp = PostgresStatement(
        "sy_sessions_of_app",
        """
        SELECT id FROM switchyard_sessions WHERE app = $1 AND id > $2 ORDER BY id LIMIT $3
        """,
        [.text, .text, .int8])
    /// Analytics: a page of an app's sessions (`id, version, state, created, last_access`; `state` is version 0's).
    static let journeysOfSessions = PostgresStatement(
        "sy_journeys_of_sessions",
        """
        SELECT id, app, version, state, created, last_access FROM switchyard_sessions
        WHERE id = ANY(string_to_array($1, ','))
        """,
        [.text])
    /// Analytics: the oldest `$2` history entries of each session of `$1` (ids separated by commas), without their
    /// lifecycle (analytics does not read it): per session, a range of the history's key with a limit, so no entry
    /// past them is read.
    static let journeyEntries = PostgresStatement(
        "sy_journey_entries",
        """
        SELECT h.session, h.version, h.time, h.source, h.request, h.visible_path
        FROM unnest(string_to_array($1, ',')) AS page(id)
        CROSS JOIN LATERAL (
            SELECT session, version, time, source, request, visible_path FROM switchyard_history
            WHERE session = page.id ORDER BY version LIMIT $2) AS h
        ORDER BY h.session, h.version
        """,
        [.text, .int8])
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
    /// What the state of version `$2` is rebuilt from (`version, state, base`): the entries from the nearest whole
    /// document up to it, and the session row's document (version 0's) when no whole entry comes before.
    static let versionChain = PostgresStatement(
        "sy_version_chain",
        """
        SELECT version, state, base FROM switchyard_history
        WHERE session = $1 AND version <= $2 AND version >= COALESCE(
            (SELECT max(version) FROM switchyard_history WHERE session = $1 AND version <= $2 AND base IS NULL), 0)
        UNION ALL
        SELECT 0::bigint, state, NULL::bigint FROM switchyard_sessions WHERE id = $1 AND NOT EXISTS (
            SELECT 1 FROM switchyard_history WHERE session = $1 AND version > 0 AND version <= $2 AND base IS NULL)
        """, [.text, .int8])
    static let creation = PostgresStatement(
        "sy_creation", "SELECT session, fingerprint, status, headers, body FROM switchyard_creations WHERE key = $1",
        [.text])

    // MARK: Published apps

    static let registry = PostgresStatement(
        "sy_registry", "SELECT generation, document FROM switchyard_registry", [])
    static let registryGeneration = PostgresStatement(
        "sy_registry_generation", "SELECT generation FROM switchyard_registry", [])
    /// The compare-and-set of the published apps from generation `$1` to `$1 + 1`: a row back when it was made. The
    /// first write (from 0) inserts the row (a second first write finds it there: no row back); later ones update
    /// it while it is at `$1` (a concurrent one waits for the row, then finds it moved on: no row back).
    static let storeRegistry = PostgresStatement(
        "sy_store_registry",
        """
        WITH updated AS (
            UPDATE switchyard_registry SET generation = $1 + 1, document = $2 WHERE id = 1 AND generation = $1
            RETURNING generation),
        inserted AS (
            INSERT INTO switchyard_registry(id, generation, document) SELECT 1, $1 + 1, $2 WHERE $1 = 0
            ON CONFLICT (id) DO NOTHING RETURNING generation)
        SELECT generation FROM updated UNION ALL SELECT generation FROM inserted
        """, [.int8, .bytea])
}
