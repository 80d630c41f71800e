import SwitchyardJSON
import SwitchyardSessions

/// The reading side of the archive: its own connection (WAL lets it read while the writer commits), one thread
/// at a time.
final class SQLiteReader {
    private let connection: SQLiteConnection
    private let session: SQLiteStatement
    private let history: SQLiteStatement
    private let historyAfter: SQLiteStatement
    private let replies: SQLiteStatement
    private let versionState: SQLiteStatement
    private let version: SQLiteStatement
    private let creation: SQLiteStatement
    private let idle: SQLiteStatement
    private let ofApp: SQLiteStatement
    private let journeys: SQLiteStatement
    private let journeyEntries: SQLiteStatement
    private let registry: SQLiteStatement
    private let registryGeneration: SQLiteStatement

    init(path: String) throws(SQLiteError) {
        connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA busy_timeout = 5000; PRAGMA query_only = 1; " + SQLiteSessionArchive.tuning)
        // A session is at the version of its latest history entry, with that entry's state; one never changed
        // (or stored by schema 1, whose entries have no state) has them in its own row. Changes do not rewrite
        // the row, so a session with history entries was used whatever its `used` column says, and last used
        // when its latest entry that is a use (not a migration) was made, if that is later than its row says.
        session = try connection.prepare(
            """
            SELECT s.app, COALESCE(h.version, s.version), COALESCE(h.state, s.state),
                   max(s.last_access, COALESCE((\(Self.lastUse("s.id"))), 0)), s.used OR h.version IS NOT NULL,
                   h.base
            FROM sessions s LEFT JOIN history h
                ON h.session = s.id AND h.version = (SELECT MAX(version) FROM history WHERE session = s.id)
            WHERE s.id = ?
            """)
        history = try connection.prepare(
            """
            SELECT version, time, source, request, visible_path, lifecycle FROM history WHERE session = ?
            ORDER BY version DESC LIMIT ?
            """)
        historyAfter = try connection.prepare(
            """
            SELECT version, time, source, request, visible_path, lifecycle FROM history WHERE session = ? AND version > ?
            ORDER BY version LIMIT ?
            """)
        replies = try connection.prepare(
            "SELECT key, fingerprint, status, headers, body FROM replies WHERE session = ? ORDER BY seq")
        versionState = try connection.prepare(
            """
            SELECT state, base FROM history WHERE session = ?1 AND version = ?2
            UNION ALL SELECT initial_state, NULL FROM sessions WHERE id = ?1 AND ?2 = 0
            """)
        version = try connection.prepare(SQLiteSchema.versionQuery)
        creation = try connection.prepare(
            "SELECT session, fingerprint, status, headers, body FROM creations WHERE key = ?")
        ofApp = try connection.prepare("SELECT id FROM sessions WHERE app = ?1 AND id > ?2 ORDER BY id LIMIT ?3")
        // Analytics: a page of sessions (`?1`, their ids as a JSON array), each with its version-0 document
        // (schema 1 rows have it as their state) and its creation time; then (`journeyEntries`) their oldest
        // history entries, by the history's primary key, in one statement.
        journeys = try connection.prepare(
            """
            SELECT s.id, s.app, COALESCE((SELECT MAX(version) FROM history WHERE session = s.id), s.version),
                   COALESCE(s.initial_state, s.state), s.created, s.last_access
            FROM json_each(?1) AS page JOIN sessions s ON s.id = page.value ORDER BY page.key
            """)
        // Each session's entries are a run of versions (retention trims the oldest): its oldest `?2` are those
        // below its oldest version + `?2`, a range of the history's key, so no entry past them is read. The page's
        // ids come as a JSON array (`?1`), as for `journeys`. No ORDER BY: each session's range gives its entries in
        // order (without a sort of the whole page), and `journeys` sorts a session's entries should they come
        // otherwise. A request is read only when `?3` or for a flow event (``StoredJourney/Requests``).
        journeyEntries = try connection.prepare(
            """
            SELECT h.session, h.version, h.time, h.source, CASE WHEN ?3 OR h.source = 'event' THEN h.request END,
                   h.visible_path
            FROM json_each(?1) AS page
            JOIN history h ON h.session = page.value
                AND h.version < (SELECT MIN(version) FROM history WHERE session = page.value) + ?2
            """)
        registry = try connection.prepare("SELECT generation, document FROM registry")
        registryGeneration = try connection.prepare("SELECT generation FROM registry")
        idle = try connection.prepare(
            """
            SELECT id FROM (
                SELECT id, used, max(last_access, COALESCE((\(Self.lastUse("sessions.id"))), 0)) AS used_at,
                EXISTS (SELECT 1 FROM history WHERE history.session = sessions.id) AS changed
                FROM sessions WHERE last_access < ?1)
            WHERE used_at < ?1 AND (used_at < ?2 OR (used = 0 AND NOT changed))
            LIMIT 1000
            """)
    }

    /// The time of the latest history entry of session `id` that is a use (a migration is not).
    private static func lastUse(_ id: String) -> String {
        """
        SELECT time FROM history WHERE history.session = \(id) AND source <> '\(HistorySource.migration.rawValue)'
        ORDER BY version DESC LIMIT 1
        """
    }

    func session(_ id: String) throws(SQLiteError) -> StoredSession? {
        // One snapshot for the session and its replies: a concurrent commit cannot split them.
        try connection.execute("BEGIN")
        defer { try? connection.execute("COMMIT") }
        defer { session.reset() }
        guard try session.bind(.text(id)).step() else { return nil }
        var stored = StoredSession(
            id: id, app: session.text(0), version: session.integer(1), state: session.blob(2),
            lastAccess: session.real(3), used: session.integer(4) != 0)
        let delta = session.optionalInteger(5) != nil
        session.reset()
        if delta {
            // The latest entry holds a delta: its document is rebuilt from its segment's snapshot.
            guard let state = try rebuiltState(of: id, at: stored.version).document else {
                throw SQLiteError(
                    code: 11, message: "session \(id): the history version \(stored.version) builds on is missing")
            }
            stored.state = state
        }
        try replies.bind(.text(id))
        while try replies.step() {
            stored.replies.append(
                StoredReply(
                    key: replies.text(0), fingerprint: UInt64(bitPattern: Int64(replies.integer(1))), session: id,
                    status: replies.integer(2), headers: StoredText.headers(replies.text(3)), body: replies.blob(4)))
        }
        replies.reset()
        return stored
    }

    func history(of session: String, after: Int?, limit: Int) throws(SQLiteError) -> [StoredChange] {
        guard let after else { return try latestHistory(of: session, limit: limit) }
        try historyAfter.bind(.text(session), .integer(after), .integer(limit))
        return try changes(historyAfter)
    }

    private func latestHistory(of session: String, limit: Int) throws(SQLiteError) -> [StoredChange] {
        try history.bind(.text(session), .integer(limit))
        return try changes(history).reversed()
    }

    /// The rows of a history query, then resets it.
    private func changes(_ statement: SQLiteStatement) throws(SQLiteError) -> [StoredChange] {
        defer { statement.reset() }
        var changes: [StoredChange] = []
        while try statement.step() {
            let lifecycle = StoredText.lifecycle(statement.text(5))
            changes.append(
                StoredChange(
                    version: statement.integer(0), time: statement.real(1),
                    source: HistorySource(stored: statement.text(2)),
                    request: statement.blob(3), visiblePath: StoredText.path(statement.text(4)), state: [],
                    started: lifecycle.started, finished: lifecycle.finished, redirected: lifecycle.redirected))
        }
        return changes
    }

    func state(of session: String, at version: Int) throws(SQLiteError) -> StateDelta.Rebuilt {
        // One snapshot for the chain of deltas: a concurrent trim cannot take a base away halfway.
        try connection.execute("BEGIN")
        defer { try? connection.execute("COMMIT") }
        return try rebuiltState(of: session, at: version)
    }

    /// The restore document of `version`: stored whole, or rebuilt from its segment's snapshot and deltas.
    private func rebuiltState(of session: String, at version: Int) throws(SQLiteError) -> StateDelta.Rebuilt {
        try StateDelta.rebuild(version) { (wanted: Int) throws(SQLiteError) -> StateDelta.Stored? in
            defer { versionState.reset() }
            guard try versionState.bind(.text(session), .integer(wanted)).step() else { return nil }
            return StateDelta.Stored(bytes: versionState.blob(0), base: versionState.optionalInteger(1))
        }
    }

    func version(of session: String) throws(SQLiteError) -> Int? {
        defer { version.reset() }
        return try version.bind(.text(session)).step() ? version.integer(0) : nil
    }

    func sessionIDs(ofApp app: String, after: String?, limit: Int) throws(SQLiteError) -> [String] {
        defer { ofApp.reset() }
        try ofApp.bind(.text(app), .text(after ?? ""), .integer(limit))
        var ids: [String] = []
        while try ofApp.step() { ids.append(ofApp.text(0)) }
        return ids
    }

    /// The sessions of `ids` that are stored, in that order, with up to `entries` of their oldest kept history
    /// entries (without their lifecycle, which analytics does not read) and the requests `requests` names, in one
    /// snapshot and two statements.
    func journeys(
        of ids: [String], entries: Int, requests: StoredJourney.Requests
    ) throws(SQLiteError) -> [StoredJourney] {
        guard !ids.isEmpty else { return [] }
        let page = JSONValue.array(ids.map(JSONValue.string)).jsonString
        try connection.execute("BEGIN")
        defer { try? connection.execute("COMMIT") }
        var found: [StoredJourney] = []
        var index: [String: Int] = [:]
        do {
            defer { journeys.reset() }
            try journeys.bind(.text(page))
            while try journeys.step() {
                let id = journeys.text(0)
                index[id] = found.count
                found.append(
                    StoredJourney(
                        id: id, app: journeys.text(1), version: journeys.integer(2),
                        initialState: journeys.blob(3), created: journeys.real(4), lastAccess: journeys.real(5),
                        entries: []))
            }
        }
        defer { journeyEntries.reset() }
        guard !found.isEmpty else { return [] }
        try journeyEntries.bind(.text(page), .integer(entries), .integer(requests == .all ? 1 : 0))
        var paths = StoredPathCache()
        var unordered = Set<Int>()
        // Rows come session by session: the id is read (and looked up) only when it changes.
        var current: (id: [UInt8], index: Int?) = ([], nil)
        while try journeyEntries.step() {
            let same = journeyEntries.withBytes(0) { $0.elementsEqual(current.id) }
            if !same {
                let id = journeyEntries.text(0)
                current = (Array(id.utf8), index[id])
                // One allocation for most sessions' entries, not one per doubling.
                if let session = current.index { found[session].entries.reserveCapacity(min(entries, 32)) }
            }
            guard let session = current.index else { continue }
            let version = journeyEntries.integer(1)
            if let last = found[session].entries.last?.version, last > version { unordered.insert(session) }
            found[session].entries.append(
                StoredJourney.Entry(
                    version: version, time: journeyEntries.real(2),
                    source: journeyEntries.withBytes(3, HistorySource.init(stored:)),
                    request: journeyEntries.blob(4), visiblePath: journeyEntries.withBytes(5) { paths.path($0) }))
        }
        for session in unordered { found[session].entries.sort { $0.version < $1.version } }
        return found
    }

    /// The published apps' document and generation (generation 0 when nothing was published).
    func storedRegistry() throws(SQLiteError) -> StoredRegistry {
        defer { registry.reset() }
        guard try registry.step() else { return StoredRegistry(generation: 0, document: []) }
        return StoredRegistry(generation: registry.integer(0), document: registry.blob(1))
    }

    /// The published apps' generation (0 when nothing was published).
    func storedRegistryGeneration() throws(SQLiteError) -> Int {
        defer { registryGeneration.reset() }
        return try registryGeneration.step() ? registryGeneration.integer(0) : 0
    }

    func creation(_ key: String) throws(SQLiteError) -> StoredReply? {
        defer { creation.reset() }
        guard try creation.bind(.text(key)).step() else { return nil }
        return StoredReply(
            key: key, fingerprint: UInt64(bitPattern: Int64(creation.integer(1))), session: creation.text(0),
            status: creation.integer(2), headers: StoredText.headers(creation.text(3)), body: creation.blob(4))
    }

    func idleSessions(usedBefore: Double, unusedBefore: Double) throws(SQLiteError) -> [String] {
        defer { idle.reset() }
        try idle.bind(.real(max(unusedBefore, usedBefore)), .real(usedBefore))
        var ids: [String] = []
        while try idle.step() { ids.append(idle.text(0)) }
        return ids
    }
}
