import SwitchyardSessions
import Synchronization

/// Sessions in a PostgreSQL database that several Switchyard nodes share (``SharedSessionArchive``).
///
/// Every write is one transaction sent in one round trip (libpq's pipeline mode; a second one, whole, when a
/// delta turns out to build on a document whose checksum the store does not know); a change is a compare-and-set
/// on the session's version. After it commits, the node tells the others on the channel `switchyard`
/// (`NOTIFY` outside the writing transaction, which would otherwise hold a global lock through its commit; many
/// changes to one notification: ``PostgresAnnouncer``), and each node's listener (``follow(_:)``) passes the
/// notices on. A commit is as durable as the server's
/// `synchronous_commit` makes it (by default: flushed to its disk).
///
/// No call waits for the database longer than the archive's timeout: one that did not get its answer in time
/// fails with ``ArchiveError/unavailable(_:)`` (a write's outcome is then unknown, as when a connection drops)
/// and its connection is closed. Each change also enforces the archive's ``StoreLimits`` in the same transaction.
public final class PostgresSessionArchive: SharedSessionArchive {
    /// The channel changes are announced on.
    static let channel = "switchyard"

    private let requestPool: PostgresPool
    /// One connection for what the listener's observers read (catching a followed session up): a stream's next
    /// event does not wait behind the requests that hold every connection of the pool.
    private let followPool: PostgresPool
    private let listener: PostgresListener
    private let announcer: PostgresAnnouncer
    private let limits: StoreLimits
    private let counts = Mutex(ArchiveStatistics(commits: 0, batches: 0))
    /// The round trips of the pools' connections (those answering requests and those following other nodes).
    private let roundTrips = RoundTrips()

    /// Connects to `url` (`postgresql://user@host:port/database`), creates or migrates the schema, and keeps up
    /// to `connections` connections for requests, plus three: one that listens for other nodes' changes (once
    /// followed), one that announces this node's, one for catching followed sessions up.
    ///
    /// - Parameters:
    ///   - limits: what the store keeps of each session at most, enforced by every change.
    ///   - timeout: the longest a call waits for the database (for a free connection, to connect, for each
    ///     answer), whether it hangs, is cut off without a word, or is gone; then the call fails with
    ///     ``ArchiveError/unavailable(_:)``. The server is asked to give up on a statement after as long
    ///     (`statement_timeout`), and the connections' TCP settings follow it (`tcp_user_timeout`). Connection
    ///     parameters in `url` win over the ones derived from it.
    /// - Throws: ``ArchiveError/unavailable(_:)`` when the database cannot be reached,
    ///   ``ArchiveError/unreadable(_:)`` when it holds the schema of a newer program.
    public init(
        url: String, connections: Int = 8, limits: StoreLimits = .standard, timeout: Duration = .seconds(5)
    ) throws(ArchiveError) {
        do {
            try PostgresSchema.migrate(
                try PostgresConnection(url: url, applicationName: "switchyard", timeout: timeout))
        } catch let error as PostgresError {
            throw error.archiveError
        } catch let error as ArchiveError {
            throw error
        } catch {
            throw .unavailable("\(error)")
        }
        requestPool = PostgresPool(url: url, size: connections, timeout: timeout, counting: roundTrips)
        followPool = PostgresPool(url: url, size: 1, timeout: timeout, counting: roundTrips)
        listener = PostgresListener(url: url, channel: Self.channel, timeout: timeout)
        announcer = PostgresAnnouncer(url: url, channel: Self.channel, timeout: timeout, counting: roundTrips)
        self.limits = limits
    }

    /// Unavailable while the database does not answer (a call ran out of time and none got an answer since):
    /// meanwhile one request at a time waits for it and the others are refused at once (``PostgresBreaker``).
    public var condition: ArchiveCondition {
        if let silence = requestPool.silence { return .unavailable(silence) }
        return .ready
    }

    public func apply(_ writes: [ArchiveWrite]) throws(ArchiveError) {
        guard !writes.isEmpty else { return }
        var notices: [String] = []
        let statements = self.statements(writes, deltas: true, notices: &notices)
        counts.withLock {
            $0.commits += 1
            $0.batches += 1
        }
        _ = try pool.with { connection, deadline throws(PostgresError) in
            do throws(PostgresError) {
                return try connection.pipeline(statements, until: deadline)
            } catch {
                guard case .server(let state, _, _) = error, state == PostgresError.staleDeltaBase else { throw error }
                // The store does not know the checksum of the document a delta builds on: the same writes, whole.
                var again: [String] = []
                return try connection.pipeline(self.statements(writes, deltas: false, notices: &again), until: deadline)
            }
        }
        announcer.announce(notices)
    }

    /// The statements of `writes`, in one transaction; `deltas`: whether a change may store its entry as a delta.
    private func statements(
        _ writes: [ArchiveWrite], deltas: Bool, notices: inout [String]
    ) -> [(PostgresStatement, [PostgresValue])] {
        var statements: [(PostgresStatement, [PostgresValue])] = []
        for write in writes { append(write, deltas: deltas, to: &statements, notices: &notices) }
        return statements
    }

    private func append(
        _ write: ArchiveWrite, deltas: Bool, to statements: inout [(PostgresStatement, [PostgresValue])],
        notices: inout [String]
    ) {
        switch write {
        case .create(let session, let creation):
            statements.append(
                (
                    PostgresStatements.insertSession,
                    [
                        .text(session.id), .text(session.app), .integer(session.version), .bytes(session.state),
                        .real(session.lastAccess), .boolean(session.used),
                    ]
                ))
            if let creation {
                statements.append((PostgresStatements.insertCreation, Self.reply(creation, first: creation.key)))
            }
        case .change(let id, let base, let version, let state, let history, let reply):
            let checked = Self.checkedDeltas(history, base: base, version: version, deltas: deltas)
            let entries = Self.kept(checked, version: version, state: state, limits: limits)
            let checksum = Int(StateDelta.checksum(of: state))
            let latest = entries.last { $0.version == version }
            // What the history's `bytes` column counts (octet_length of request and state).
            let added = entries.reduce(0) { $0 + $1.request.count + Self.storedState($1).count }
            statements.append(
                (
                    PostgresStatements.advance,
                    [.text(id), .integer(base), .integer(version), .real(history.last?.time ?? 0)]
                        + Self.entry(
                            latest
                                ?? StoredChange(
                                    version: version, time: 0, source: .api, request: [], visiblePath: [], state: []))
                        + [
                            .boolean(latest != nil), .integer(added),
                            .integer(limits.historyEntries.map { version - $0 } ?? -1),
                            .integer(limits.historyBytes), .integer(limits.historyBytes / 4 * 3),
                            .integer(latest?.delta?.base ?? -1), .integer(entries.first?.version ?? version),
                            .boolean(entries.first.map { $0.delta == nil } ?? false),
                            .integer(checksum),
                            .integer(Int(latest?.delta?.baseChecksum ?? 0)),
                            // A migration is not a use: its entry keeps its own time, the session its last use.
                            .real(history.last { $0.source != .migration }?.time ?? 0),
                        ]
                ))
            for change in entries where change.version != version {
                statements.append(
                    (
                        PostgresStatements.insertHistory,
                        [.text(id), .integer(change.version), .real(change.time)] + Self.entry(change)
                    ))
            }
            if latest == nil {
                statements.append(
                    (
                        PostgresStatements.replaceState,
                        [.text(id), .integer(version), .bytes(state), .integer(checksum)]
                    ))
                statements.append(
                    (
                        PostgresStatements.pruneHistory,
                        [
                            .text(id), .integer(version), .integer(limits.historyBytes),
                            .integer(limits.historyBytes / 4 * 3),
                        ]
                    ))
            }
            if let reply {
                statements.append(
                    (
                        PostgresStatements.upsertReply,
                        Self.reply(reply, first: id, then: reply.key) + [
                            .integer(limits.replies), .integer(limits.replyBytes), .integer(limits.replyBytes / 4 * 3),
                        ]
                    ))
            }
            if version != base { notices.append("c \(id) \(version)") }
        case .remove(let id):
            statements.append((PostgresStatements.removeSession, [.text(id)]))
            notices.append("r \(id)")
        case .touch(let id, let lastAccess, let used):
            statements.append((PostgresStatements.touchSession, [.text(id), .real(lastAccess), .boolean(used)]))
        }
    }

    /// A change's entries as the store may keep them: only a change's one entry may be a delta, one that builds on
    /// the version the change started from (not version 0, kept in the session's row) and says the checksum of the
    /// document it was made against (the statement checks that the session's document is that one); the others,
    /// and all when `deltas` is off, whole.
    private static func checkedDeltas(
        _ history: [StoredChange], base: Int, version: Int, deltas: Bool
    ) -> [StoredChange] {
        if deltas, history.count == 1, history[0].version == version, let delta = history[0].delta,
            delta.base == base, base > 0, delta.knowsItsBase
        {
            return history
        }
        return history.map { change in
            var whole = change
            whole.delta = nil
            return whole
        }
    }

    /// The history entries of a change to write: the latest version's with the change's state when it came without
    /// one, and not those the limits would delete at once (past the count, or older than the newest that fit in the
    /// budget's chunk; the latest always stays). The oldest kept is whole when the entry its delta builds on is one
    /// of those left out.
    private static func kept(
        _ history: [StoredChange], version: Int, state: [UInt8], limits: StoreLimits
    ) -> [StoredChange] {
        let cutoff = limits.historyEntries.map { version - $0 } ?? -1
        var kept: [StoredChange] = []
        var bytes = 0
        for var change in history.reversed() where change.version > cutoff {
            if change.version == version, change.state.isEmpty {
                change.state = state
                change.delta = nil
            }
            bytes += change.request.count + storedState(change).count
            if change.version != version, bytes > limits.historyBytes / 4 * 3 { break }
            kept.append(change)
        }
        if let oldest = kept.last, let base = oldest.delta?.base, history.contains(where: { $0.version == base }) {
            kept[kept.count - 1].delta = nil
        }
        return kept.reversed()
    }

    /// What an entry's `state` column holds: its delta, or its whole document.
    private static func storedState(_ change: StoredChange) -> [UInt8] {
        change.delta?.bytes ?? change.state
    }

    /// A history entry's source, request, visible path, state and lifecycle ("" for none), as statement parameters.
    private static func entry(_ change: StoredChange) -> [PostgresValue] {
        let path = StoredText.path(change.visiblePath)
        let lifecycle =
            StoredText.lifecycle(
                started: change.started, finished: change.finished, redirected: change.redirected) ?? ""
        return [
            .text(change.source.rawValue), .bytes(change.request), .text(path), .bytes(storedState(change)),
            .text(lifecycle),
        ]
    }

    /// The parameters of a remembered reply: `first` (and `then`) followed by its fingerprint, status, headers and
    /// body; a creation's second parameter is the session it created.
    private static func reply(_ reply: StoredReply, first: String, then second: String? = nil) -> [PostgresValue] {
        [
            .text(first), .text(second ?? reply.session), .integer(Int(Int64(bitPattern: reply.fingerprint))),
            .integer(reply.status), .text(StoredText.headers(reply.headers)), .bytes(reply.body),
        ]
    }

    public func session(_ id: String) throws(ArchiveError) -> StoredSession? {
        guard case .changed(let stored) = try session(id, unlessAt: -1, reply: nil) else { return nil }
        return stored
    }

    public func session(
        _ id: String, unlessAt version: Int, reply key: String?
    ) throws(ArchiveError)
        -> StoredSessionRead
    {
        for _ in 0..<3 {
            let result = try query(PostgresStatements.session, [.text(id), .integer(version), .text(key ?? "")])
            guard var stored = PostgresRows.session(id, result) else { return .absent }
            if stored.version == version { return .unchanged(reply: stored.replies.first) }
            if PostgresRows.holdsDelta(result) {
                // Rebuilt from the entries it builds on, read in the same statement.
                guard let state = PostgresRows.rebuiltState(of: stored, result) else { continue }
                stored.state = state
            }
            return .changed(stored)
        }
        throw .unreadable("session \(id): the history its version builds on is missing")
    }

    public func version(of session: String) throws(ArchiveError) -> Int? {
        let result = try query(PostgresStatements.version, [.text(session)])
        return result.rows.isEmpty ? nil : result.integer(0, 0)
    }

    public func sessionIDs(ofApp app: String, after: String?, limit: Int) throws(ArchiveError) -> [String] {
        let result = try query(PostgresStatements.sessionsOfApp, [.text(app), .text(after ?? ""), .integer(limit)])
        return result.rows.indices.map { result.text($0, 0) }
    }

    /// Two round trips a page: the sessions, then their entries.
    public func journeys(
        of ids: [String], entries: Int, requests: StoredJourney.Requests
    ) throws(ArchiveError) -> [StoredJourney] {
        guard !ids.isEmpty else { return [] }
        let page = try query(PostgresStatements.journeysOfSessions, [.text(ids.joined(separator: ","))])
        var found: [String: StoredJourney] = [:]
        for row in page.rows.indices {
            found[page.text(row, 0)] = StoredJourney(
                id: page.text(row, 0), app: page.text(row, 1), version: page.integer(row, 2),
                initialState: page.bytes(row, 3), created: page.real(row, 4), lastAccess: page.real(row, 5),
                entries: [])
        }
        var journeys = ids.compactMap { found[$0] }
        guard !journeys.isEmpty else { return [] }
        let result = try query(
            PostgresStatements.journeyEntries, [.text(journeys.map(\.id).joined(separator: ",")), .integer(entries)])
        let index = Dictionary(journeys.indices.map { (journeys[$0].id, $0) }) { first, _ in first }
        // Sessions go through the same few screens: each path's JSON is read once.
        var paths = StoredPathCache()
        for row in result.rows.indices {
            guard let session = index[result.text(row, 0)] else { continue }
            let path = paths.path(result.text(row, 5))
            let source = HistorySource(stored: result.text(row, 3))
            journeys[session].entries.append(
                StoredJourney.Entry(
                    version: result.integer(row, 1), time: result.real(row, 2), source: source,
                    request: requests.includes(source) ? result.bytes(row, 4) : [], visiblePath: path))
        }
        return journeys
    }

    public func versions(of sessions: [String]) throws(ArchiveError) -> [String: Int] {
        guard !sessions.isEmpty else { return [:] }
        let result = try query(PostgresStatements.versions, [.text(sessions.joined(separator: ","))])
        var found: [String: Int] = [:]
        for row in result.rows.indices { found[result.text(row, 0)] = result.integer(row, 1) }
        return found
    }

    public func history(of session: String, after: Int?, limit: Int) throws(ArchiveError) -> [StoredChange] {
        guard let after else {
            return PostgresRows.changes(
                try query(PostgresStatements.latestHistory, [.text(session), .integer(limit)])
            ).reversed()
        }
        return PostgresRows.changes(
            try query(PostgresStatements.historyAfter, [.text(session), .integer(after), .integer(limit)]))
    }

    public func state(of session: String, at version: Int) throws(ArchiveError) -> [UInt8]? {
        try PostgresRows.state(
            at: version, try query(PostgresStatements.versionChain, [.text(session), .integer(version)])
        ).kept(session)
    }

    /// True: a change's entry is kept as a delta (``StateDelta``) when the entry it builds on still holds the
    /// document the delta was made against. Another node may have rewritten that document without a new version
    /// (app data changed by a keyed request), which the version compare-and-set does not see: the session's row
    /// keeps its document's checksum and the compare-and-set checks the delta's against it. A delta made against
    /// another document is a conflict (the change runs again on the stored state, so the other node's change is
    /// not lost); one on a document whose checksum is not known (a new session, or one an older node wrote) is
    /// written again whole, in the same call.
    public var storesDeltas: Bool { true }

    public func creation(_ key: String) throws(ArchiveError) -> StoredReply? {
        let result = try query(PostgresStatements.creation, [.text(key)])
        guard !result.rows.isEmpty else { return nil }
        return StoredReply(
            key: key, fingerprint: UInt64(bitPattern: Int64(result.integer(0, 1))), session: result.text(0, 0),
            status: result.integer(0, 2), headers: StoredText.headers(result.text(0, 3)), body: result.bytes(0, 4))
    }

    public func expire(usedBefore: Double, unusedBefore: Double) throws(ArchiveError) -> [String] {
        let result = try query(PostgresStatements.expire, [.real(max(usedBefore, unusedBefore)), .real(usedBefore)])
        let ids = result.rows.indices.map { result.text($0, 0) }
        guard !ids.isEmpty else { return [] }
        // Other nodes end their copies and streams (a lost notice is made up by their reconcile).
        announcer.announce(
            stride(from: 0, to: ids.count, by: 200).map { start in
                "r " + ids[start..<min(ids.count, start + 200)].joined(separator: " ")
            })
        return ids
    }

    public func follow(_ observer: @escaping @Sendable (ArchiveNotice) -> Void) {
        listener.add(observer)
    }

    public func close() {
        listener.stop()
        announcer.stop()
        requestPool.close()
        followPool.close()
    }

    /// The connections for the calling thread.
    private var pool: PostgresPool {
        listener.isCurrentThread ? followPool : requestPool
    }

    public var statistics: ArchiveStatistics? {
        var statistics = counts.withLock { $0 }
        statistics.roundTrips = roundTrips.total
        return statistics
    }

    func query(
        _ statement: PostgresStatement, _ parameters: [PostgresValue]
    ) throws(ArchiveError) -> PostgresResult {
        try pool.with { connection, deadline throws(PostgresError) in
            try connection.query(statement, parameters, until: deadline)
        }
    }
}
