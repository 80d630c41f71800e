import Foundation
import HTTPTestSupport
import SwitchyardServer
import SwitchyardSessions
import Synchronization
import Testing

@testable import PostgresStore

/// What only the PostgreSQL store does: give up on a database that does not answer, and keep each session's
/// footprint within its ``StoreLimits`` with running totals.
@Suite("PostgreSQL store")
struct PostgresArchiveTests {
    static var withPostgres: Bool { ArchiveKind.available.contains(.postgres) }

    static func session(_ id: String) -> StoredSession {
        StoredSession(id: id, app: "todo", version: 0, state: Array("{}".utf8), lastAccess: 1000, used: false)
    }

    /// A change from `base` to `base + versions`, each version's document `document(version)`.
    static func change(
        _ id: String, from base: Int, versions: Int = 1, reply: StoredReply? = nil,
        document: (Int) -> [UInt8] = { Array(#"{"v":\#($0)}"#.utf8) }
    ) -> ArchiveWrite {
        .change(
            session: id, base: base, version: base + versions, state: document(base + versions),
            history: (base + 1...base + versions).map { made in
                StoredChange(
                    version: made, time: 2000 + Double(made), source: .api, request: Array(#"{"n":\#(made)}"#.utf8),
                    visiblePath: ["p\(made)"], state: document(made))
            }, reply: reply)
    }

    /// A JSON document of about `bytes` bytes that names its version.
    static func document(_ version: Int, bytes: Int) -> [UInt8] {
        Array(#"{"v":\#(version),"pad":""#.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: bytes)
            + Array(#""}"#.utf8)
    }

    static func reply(_ key: String, session: String, bytes: Int) -> StoredReply {
        StoredReply(
            key: key, fingerprint: 7, session: session, status: 200, headers: [("ETag", "\"1\"")],
            body: [UInt8](repeating: UInt8(ascii: "r"), count: bytes))
    }

    /// One integer from SQL.
    static func number(_ database: TestDatabase, _ sql: String) throws -> Int {
        let text = try database.sql(sql).first?.first ?? nil
        return try #require(text.flatMap { Int($0) }, "\(sql) gave \(String(describing: text))")
    }

    // MARK: A database that does not answer

    /// A server that accepts the connection and never says a word: connecting gives up after the timeout.
    @Test func aServerThatNeverAnswersCostsTheTimeout() throws {
        let relay = try FreezableRelay(upstreamPort: nil)
        defer { relay.stop() }
        let start = ContinuousClock.now
        #expect(throws: ArchiveError.unavailable("the database did not answer within 0.5 s")) {
            _ = try PostgresSessionArchive(url: relay.url(database: "switchyard"), timeout: .milliseconds(500))
        }
        #expect(start.duration(to: .now) < .milliseconds(1500))
    }

    /// An archive of a database of its own, reached through a relay that can freeze (with a 1 s timeout).
    static func archiveBehindARelay(
        connections: Int
    ) throws -> (PostgresSessionArchive, FreezableRelay, TestDatabase) {
        let database = try TestDatabase()
        let relay = try FreezableRelay(upstreamPort: try #require(URLComponents(string: database.url)?.port))
        do {
            let archive = try PostgresSessionArchive(
                url: relay.url(database: database.name), connections: connections, timeout: .seconds(1))
            return (archive, relay, database)
        } catch {
            relay.stop()
            throw error
        }
    }

    static func close(_ archive: PostgresSessionArchive, _ relay: FreezableRelay, _ database: TestDatabase) {
        archive.close()
        relay.stop()
        _ = database
    }

    /// The database freezes under an archive in use: every call (a read, a write, a caller waiting for one of the
    /// busy connections) fails with `.unavailable` within the timeout; once it answers again the archive works
    /// with new connections, and its listener reconnects and says `.resumed`.
    @Test(.enabled(if: withPostgres)) func aFrozenDatabaseCostsEachCallTheTimeoutAndTheArchiveRecovers() throws {
        let (archive, relay, database) = try Self.archiveBehindARelay(connections: 2)
        defer { Self.close(archive, relay, database) }
        let heard = Mutex<[ArchiveNotice]>([])
        archive.follow { notice in heard.withLock { $0.append(notice) } }
        try archive.apply([.create(Self.session("s"), creation: nil)])
        // The listener connects on a thread of its own, and what is sent before it listens is lost (a loaded
        // machine may take a while): the session changes until the listener hears a change.
        var version = 0
        #expect(
            eventually(within: 30) {
                // A write the 1 s timeout cut off on a loaded machine (before the freeze) may have landed or not:
                // the next try starts from the stored version.
                do {
                    try archive.apply([Self.change("s", from: version)])
                    version += 1
                } catch {
                    version = (try? archive.version(of: "s")) ?? version
                    return false
                }
                return eventually(within: 0.5) {
                    heard.withLock { $0.last } == .changed(session: "s", version: version)
                }
            }, "the listener listens")

        relay.freeze()
        let outcomes = Mutex<[(error: ArchiveError?, took: Duration)]>([])
        let done = DispatchGroup()
        for caller in 0..<4 {
            done.enter()
            onNewThread {
                let start = ContinuousClock.now
                var failure: ArchiveError?
                do throws(ArchiveError) {
                    if caller.isMultiple(of: 2) {
                        _ = try archive.version(of: "s")
                    } else {
                        try archive.apply([.touch(session: "s", lastAccess: 3000, used: true)])
                    }
                } catch {
                    failure = error
                }
                outcomes.withLock { $0.append((failure, start.duration(to: .now))) }
                done.leave()
            }
        }
        done.wait()
        // Four callers on two connections: two time out on theirs, two find none free.
        let refusals: [ArchiveError] = [
            .unavailable("the database did not answer within 1 s"),
            .unavailable("no database connection was free within 1 s"),
        ]
        for outcome in outcomes.withLock({ $0 }) {
            #expect(outcome.error.map(refusals.contains) == true, "\(String(describing: outcome.error))")
            #expect(outcome.took < .milliseconds(2500), "a call waited \(outcome.took)")
        }
        // Frozen long enough for the listener to find out (it asks a quiet server every 2 s).
        Thread.sleep(forTimeInterval: 3.5)
        relay.thaw()

        #expect(eventually(within: 10) { (try? archive.version(of: "s")) == version })
        #expect(eventually(within: 10) { heard.withLock { $0.contains(.resumed) } }, "the listener did not resume")
        try archive.apply([Self.change("s", from: version)])
        #expect(eventually { heard.withLock { $0.last } == .changed(session: "s", version: version + 1) })
    }

    /// Once a call ran out of time, the others do not each wait for a frozen database: one call at a time (a probe)
    /// waits, the rest are refused at once, and the archive says it is unavailable until one gets an answer.
    @Test(.enabled(if: withPostgres)) func aDatabaseThatStoppedAnsweringIsAskedByOneCallAtATime() throws {
        let (archive, relay, database) = try Self.archiveBehindARelay(connections: 4)
        defer { Self.close(archive, relay, database) }
        try archive.apply([.create(Self.session("s"), creation: nil)])
        #expect(archive.condition == .ready)

        relay.freeze()
        #expect(throws: ArchiveError.self) { _ = try archive.version(of: "s") }
        guard case .unavailable = archive.condition else {
            Issue.record("a timed-out call leaves the archive \(archive.condition)")
            return
        }
        // A probe is due a fifth of the timeout after the call that ran out of time (so that the request that made
        // it is not kept waiting a second timeout by its next call); then it waits for the frozen database, and
        // meanwhile every other call is refused without waiting.
        Thread.sleep(forTimeInterval: 0.25)
        let probe = Self.probe(archive)
        Thread.sleep(forTimeInterval: 0.2)
        Self.expectRefusedAtOnce(archive, "a call waited for a database known to be silent")
        probe.wait()
        relay.thaw()
        #expect(eventually(within: 10) { (try? archive.version(of: "s")) == 0 })
        #expect(archive.condition == .ready)
    }

    /// A freeze is found before any call runs out of time: once a call has waited a fifth of the timeout while no
    /// call got an answer, the next call probes and every other call is refused at once, so that a freeze holds
    /// only the calls of its first moments; the request whose call timed out is not kept a second timeout either.
    @Test(.enabled(if: withPostgres)) func aFreezeIsFoundBeforeAnyCallRunsOutOfTime() throws {
        let (archive, relay, database) = try Self.archiveBehindARelay(connections: 4)
        defer { Self.close(archive, relay, database) }
        try archive.apply([.create(Self.session("s"), creation: nil)])

        relay.freeze()
        let first = DispatchGroup()
        first.enter()
        onNewThread {
            _ = try? archive.version(of: "s")  // waits for the frozen database, up to the 1 s timeout
            first.leave()
        }
        Thread.sleep(forTimeInterval: 0.4)  // past a fifth of the timeout, before the first call runs out
        let probe = Self.probe(archive)
        Thread.sleep(forTimeInterval: 0.1)
        Self.expectRefusedAtOnce(archive, "a call joined a database silent for 0.4 s")
        first.wait()
        probe.wait()
        // The call that ran out of time is not followed by a second wait: its next call is refused at once.
        let start = ContinuousClock.now
        #expect(throws: ArchiveError.self) { _ = try archive.version(of: "s") }
        #expect(start.duration(to: .now) < .milliseconds(200))
        relay.thaw()
        #expect(eventually(within: 10) { (try? archive.version(of: "s")) == 0 })
        #expect(archive.condition == .ready)
    }

    /// A call on a thread of its own that waits for the database (the breaker's probe); wait for the group.
    private static func probe(_ archive: PostgresSessionArchive) -> DispatchGroup {
        let probe = DispatchGroup()
        probe.enter()
        onNewThread {
            _ = try? archive.version(of: "s")
            probe.leave()
        }
        return probe
    }

    /// Five calls, each refused within 200 ms (none waits for the database).
    private static func expectRefusedAtOnce(
        _ archive: PostgresSessionArchive, _ message: Comment, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for _ in 0..<5 {
            let start = ContinuousClock.now
            #expect(throws: ArchiveError.self, sourceLocation: sourceLocation) { _ = try archive.version(of: "s") }
            #expect(start.duration(to: .now) < .milliseconds(200), message, sourceLocation: sourceLocation)
        }
    }

    // MARK: Limits

    /// 200 changes of ~20 KB documents under a 256 KiB history budget: the session keeps at most 256 KiB of history
    /// (as SQL counts it), its running total is right, and its latest versions read back.
    /// Two admins publishing at once (on two nodes, one database): exactly one write of each generation is stored.
    @Test(.enabled(if: withPostgres)) func concurrentPublishingStoresOneWritePerGeneration() throws {
        let database = try TestDatabase()
        // What is checked is the compare-and-set's outcome, not its speed: a machine busy with make test's
        // background builds may keep 8 publishers waiting on each other's row lock for seconds.
        let nodes = try (0..<2).map { _ in
            try PostgresSessionArchive(url: database.url, connections: 4, timeout: .seconds(30))
        }
        defer { for node in nodes { node.close() } }
        for generation in 0..<3 {
            let stored = Mutex(0)
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                let registry = nodes[index % 2].registry
                if (try? registry?.storeRegistry(Array("w\(generation)-\(index)".utf8), replacing: generation)) != nil {
                    stored.withLock { $0 += 1 }
                }
            }
            #expect(stored.withLock { $0 } == 1, "generation \(generation)")
            #expect(try nodes[1].registryGeneration() == generation + 1)
        }
    }

    /// The store counts its round trips to the database: a change of a stored session is one (a pipeline of its
    /// statements, prepared the first time), plus the notice to other nodes that its announcer sends on its own
    /// thread (counted once it is sent, so one or two by the time the change returns), and reads count theirs.
    @Test(.enabled(if: withPostgres)) func roundTripsToTheDatabaseAreCounted() throws {
        let database = try TestDatabase()
        let archive = try PostgresSessionArchive(url: database.url, connections: 1)
        defer { archive.close() }
        try archive.apply([.create(Self.session("rt"), creation: nil)])
        try archive.apply([Self.change("rt", from: 0)])  // prepares what a change runs
        // The announcer connects and prepares on its own thread after its first notice: let it settle (the count
        // unchanged across a few looks), so that only the change below and its own notice are counted.
        var before = try #require(archive.statistics?.roundTrips)
        var steady = 0
        for _ in 0..<200 where steady < 5 {
            Thread.sleep(forTimeInterval: 0.01)
            let now = try #require(archive.statistics?.roundTrips)
            steady = now == before ? steady + 1 : 0
            before = now
        }
        try archive.apply([Self.change("rt", from: 1)])
        let afterChange = try #require(archive.statistics?.roundTrips)
        #expect((1...2).contains(afterChange - before), "\(afterChange - before) round trips for a change")
        _ = try archive.session("rt")
        #expect(try #require(archive.statistics?.roundTrips) > afterChange)
    }

    @Test(.enabled(if: withPostgres)) func aSessionsHistoryStaysWithinItsByteBudget() throws {
        let database = try TestDatabase()
        let budget = 256 * 1024
        let archive = try PostgresSessionArchive(
            url: database.url, connections: 2, limits: StoreLimits(historyEntries: nil, historyBytes: budget))
        defer { archive.close() }
        try archive.apply([.create(Self.session("s"), creation: nil)])
        let document = { (version: Int) in Self.document(version, bytes: 20_000) }
        for version in 1...200 {
            try archive.apply([Self.change("s", from: version - 1, document: document)])
        }
        let stored = try Self.number(
            database,
            "SELECT sum(octet_length(request) + COALESCE(octet_length(state), 0)) FROM switchyard_history "
                + "WHERE session = 's'")
        #expect(stored <= budget)
        #expect(stored >= budget / 2, "pruned in chunks to about 3/4 of the budget, not to nothing")
        #expect(try Self.number(database, "SELECT history_bytes FROM switchyard_sessions WHERE id = 's'") == stored)
        let kept = try archive.history(of: "s", after: nil, limit: 1000).map(\.version)
        #expect(kept.last == 200)
        #expect(kept == Array((201 - kept.count)...200), "the newest entries are the ones kept")
        for version in kept { #expect(try archive.state(of: "s", at: version) == document(version)) }
        #expect(try archive.session("s")?.state == document(200))
    }

    /// The store keeps changes as deltas (a whole document every 16 versions), a fraction of the bytes, and every
    /// version reads back as answered, from this node and from a node started afterwards.
    @Test(.enabled(if: withPostgres)) func changesAreStoredAsDeltasAndReadBackAsAnswered() throws {
        let database = try TestDatabase()
        func node() throws -> PostgresSessionArchive {
            try PostgresSessionArchive(url: database.url, connections: 2)
        }
        let first = try node()
        let (id, answers) = try withServer({ $0.archive = first }) { server in
            let session = try server.createSession()
            try session.logIn()
            try session.must(session.transition(#"{"action":"selectTab","route":"todos"}"#))
            var answers: [Int: String] = [:]
            for turn in 0..<36 {
                let step =
                    turn % 2 == 0 ? #"{"action":"push","route":"todo","input":"t\#(turn)"}"# : #"{"action":"pop"}"#
                let reply = try session.must(
                    session.transition(#"{"coordinator":"TodosCoordinator","steps":[\#(step)]}"#))
                let version = try #require(reply.version)
                answers[version] = try server.get(session.base + "/versions/\(version)").text
            }
            return (session.id, answers)
        }
        first.close()
        #expect(try Self.number(database, "SELECT count(*) FROM switchyard_history WHERE base IS NOT NULL") > 30)
        let deltaBytes = try Self.number(
            database, "SELECT avg(octet_length(state))::bigint FROM switchyard_history WHERE base IS NOT NULL")
        let wholeBytes = try Self.number(
            database, "SELECT avg(octet_length(state))::bigint FROM switchyard_history WHERE base IS NULL")
        #expect(deltaBytes * 4 < wholeBytes, "a delta of \(deltaBytes) bytes for a document of \(wholeBytes)")
        let second = try node()
        defer { second.close() }
        try withServer({ $0.archive = second }) { (server: TestServer) throws in
            for (version, answer) in answers {
                #expect(try server.get("/api/sessions/\(id)/versions/\(version)").text == answer, "version \(version)")
            }
            #expect(try server.get("/api/sessions/\(id)").version == answers.keys.max())
        }
    }

    /// A delta made against a document that another node rewrote since (a change that made no version) is a
    /// conflict: nothing is stored, and the change made again on the stored document keeps the other node's
    /// rewrite. Without the check, the version would build on a document it was not made against and could not
    /// be read (and the rewrite would be lost).
    @Test(.enabled(if: withPostgres)) func aDeltaOnADocumentAnotherNodeRewroteIsAConflict() throws {
        let database = try TestDatabase()
        let a = try PostgresSessionArchive(url: database.url, connections: 1)
        defer { a.close() }
        let b = try PostgresSessionArchive(url: database.url, connections: 1)
        defer { b.close() }
        let padded = { (version: Int, note: String) in Self.document(version, bytes: 1500) + Array(note.utf8) }
        try a.apply([.create(Self.session("s"), creation: nil)])
        try a.apply([Self.change("s", from: 0) { padded($0, "") }])
        // B rewrites version 1 (its app data changed without a new version); A does not know.
        try b.apply([.change(session: "s", base: 1, version: 1, state: padded(1, "b"), history: [], reply: nil)])
        do {
            try a.apply([Self.deltaChange("s", to: 2, state: padded(2, ""), previous: padded(1, ""))])
            Issue.record("a delta on a rewritten document was stored")
        } catch .conflict {
        } catch {
            Issue.record("not a conflict: \(error)")
        }
        #expect(try a.version(of: "s") == 1)
        // A takes the stored document and makes its change again.
        let stored = try #require(try a.session("s"))
        #expect(stored.state == padded(1, "b"))
        try a.apply([Self.deltaChange("s", to: 2, state: padded(2, "b"), previous: stored.state)])
        #expect(try Self.number(database, "SELECT base FROM switchyard_history WHERE version = 2") == 1)
        #expect(try b.state(of: "s", at: 2) == padded(2, "b"))
        #expect(try b.state(of: "s", at: 1) == padded(1, "b"))
    }

    /// A node of the schema before (5) still running while a newer one migrated the database rewrites a document
    /// without its checksum (its connections do not say `switchyard.checksums`): the store forgets the checksum,
    /// and the next change, a delta, is stored whole.
    @Test(.enabled(if: withPostgres)) func aDocumentRewrittenByAnOlderNodeTakesNoDelta() throws {
        let database = try TestDatabase()
        let archive = try PostgresSessionArchive(url: database.url, connections: 1)
        defer { archive.close() }
        let padded = { (version: Int, note: String) in Self.document(version, bytes: 1500) + Array(note.utf8) }
        try archive.apply([.create(Self.session("s"), creation: nil)])
        try archive.apply([Self.change("s", from: 0) { padded($0, "") }])
        // What a node of schema 5 sends for a change without a new version.
        let rewritten = String(decoding: padded(1, "old"), as: UTF8.self)
        #expect(try Self.number(database, "SELECT count(*) FROM switchyard_sessions WHERE checksum IS NULL") == 0)
        _ = try database.sql(
            """
            RESET switchyard.checksums;
            UPDATE switchyard_history SET state = convert_to('\(rewritten)', 'UTF8'), base = NULL
            WHERE session = 's' AND version = 1;
            UPDATE switchyard_sessions SET history_bytes = history_bytes WHERE id = 's';
            """)
        #expect(try Self.number(database, "SELECT count(*) FROM switchyard_sessions WHERE checksum IS NULL") == 1)
        try archive.apply([Self.deltaChange("s", to: 2, state: padded(2, ""), previous: padded(1, ""))])
        #expect(try Self.number(database, "SELECT count(*) FROM switchyard_history WHERE base IS NOT NULL") == 0)
        #expect(try archive.state(of: "s", at: 2) == padded(2, ""))
    }

    /// A change from version `to - 1` to `to` whose entry is a delta from `previous` (the session layer's).
    static func deltaChange(_ id: String, to version: Int, state: [UInt8], previous: [UInt8]) -> ArchiveWrite {
        var entry = StoredChange(
            version: version, time: 2000 + Double(version), source: .api, request: Array("{}".utf8),
            visiblePath: ["p"], state: state)
        entry.delta = StateDelta.make(version: version, state: state, previous: (version - 1, previous))
        #expect(entry.delta != nil, "a delta pays for these documents")
        return .change(session: id, base: version - 1, version: version, state: state, history: [entry], reply: nil)
    }

    /// A version's document larger than the whole budget: the current version is kept all the same.
    @Test(.enabled(if: withPostgres)) func theCurrentVersionIsKeptWhateverItsSize() throws {
        let database = try TestDatabase()
        let archive = try PostgresSessionArchive(
            url: database.url, connections: 2, limits: StoreLimits(historyBytes: 10_000))
        defer { archive.close() }
        try archive.apply([.create(Self.session("s"), creation: nil)])
        let document = { (version: Int) in Self.document(version, bytes: 30_000) }
        for version in 1...3 { try archive.apply([Self.change("s", from: version - 1, document: document)]) }
        #expect(try archive.history(of: "s", after: nil, limit: 10).map(\.version) == [3])
        #expect(try archive.state(of: "s", at: 3) == document(3))
        #expect(try archive.session("s")?.state == document(3))
        // One change of three such versions: its older two are not even written.
        try archive.apply([Self.change("s", from: 3, versions: 3, document: document)])
        #expect(try archive.history(of: "s", after: nil, limit: 10).map(\.version) == [6])
        #expect(try archive.state(of: "s", at: 6) == document(6))
    }

    /// Remembered replies within a byte budget: the oldest go first, the newest always stays; the count limit
    /// holds too.
    @Test(.enabled(if: withPostgres)) func repliesStayWithinTheirByteBudgetAndCount() throws {
        let database = try TestDatabase()
        let budget = 64 * 1024
        let archive = try PostgresSessionArchive(
            url: database.url, connections: 2, limits: StoreLimits(replies: 256, replyBytes: budget))
        defer { archive.close() }
        try archive.apply([.create(Self.session("s"), creation: nil)])
        for version in 1...100 {
            let reply = Self.reply("k\(version)", session: "s", bytes: 4000)
            try archive.apply([Self.change("s", from: version - 1, reply: reply)])
        }
        let stored = try Self.number(
            database,
            "SELECT sum(octet_length(headers) + octet_length(body)) FROM switchyard_replies WHERE session = 's'")
        #expect(stored <= budget)
        #expect(try Self.number(database, "SELECT reply_bytes FROM switchyard_sessions WHERE id = 's'") == stored)
        let keys = try #require(try archive.session("s")?.replies.map(\.key))
        #expect(keys.last == "k100")
        #expect(keys == (101 - keys.count...100).map { "k\($0)" }, "the newest replies are the ones kept")

        // One reply larger than the budget: kept (a retry of its change must find it), alone.
        try archive.apply([Self.change("s", from: 100, reply: Self.reply("big", session: "s", bytes: 2 * budget))])
        #expect(try archive.session("s")?.replies.map(\.key) == ["big"])

        // The count: 300 small replies, 256 kept.
        for version in 101...400 {
            try archive.apply([
                Self.change("s", from: version, reply: Self.reply("c\(version)", session: "s", bytes: 10))
            ])
        }
        #expect(try Self.number(database, "SELECT count(*) FROM switchyard_replies WHERE session = 's'") == 256)
        #expect(try Self.number(database, "SELECT reply_count FROM switchyard_sessions WHERE id = 's'") == 256)
    }

    /// The running totals stay equal to what the rows hold through every kind of write: changes of several
    /// versions, a state replaced without a new version, replies replaced under their key, pruning by count.
    @Test(.enabled(if: withPostgres)) func theRunningTotalsMatchTheRows() throws {
        let database = try TestDatabase()
        let archive = try PostgresSessionArchive(
            url: database.url, connections: 2,
            limits: StoreLimits(historyEntries: 5, historyBytes: 4000, replies: 3, replyBytes: 3000))
        defer { archive.close() }
        try archive.apply([.create(Self.session("s"), creation: nil), .create(Self.session("t"), creation: nil)])
        var version = 0
        for step in 1...30 {
            let document = { (made: Int) in Self.document(made, bytes: 50 * (made % 7)) }
            let reply = Self.reply("k\(step % 4)", session: "s", bytes: 100 * (step % 5))
            try archive.apply([
                Self.change("s", from: version, versions: 1 + step % 3, reply: reply, document: document)
            ])
            version += 1 + step % 3
            if step.isMultiple(of: 4) {
                let replaced = Self.document(version, bytes: 300)
                try archive.apply([
                    .change(session: "s", base: version, version: version, state: replaced, history: [], reply: nil)
                ])
                #expect(try archive.state(of: "s", at: version) == replaced)
            }
            try archive.apply([Self.change("t", from: step - 1)])
            let history = try database.sql(
                "SELECT s.history_bytes, (SELECT COALESCE(sum(octet_length(request) + COALESCE(octet_length(state), 0)),"
                    + " 0) FROM switchyard_history h WHERE h.session = s.id), s.reply_count, (SELECT count(*) FROM"
                    + " switchyard_replies r WHERE r.session = s.id), s.reply_bytes, (SELECT COALESCE(sum(octet_length("
                    + "headers) + octet_length(body)), 0) FROM switchyard_replies r WHERE r.session = s.id)"
                    + " FROM switchyard_sessions s ORDER BY id")
            for row in history {
                #expect(row[0] == row[1], "history bytes, step \(step)")
                #expect(row[2] == row[3], "reply count, step \(step)")
                #expect(row[4] == row[5], "reply bytes, step \(step)")
            }
            #expect(try Self.number(database, "SELECT count(*) FROM switchyard_history WHERE session = 's'") <= 5)
        }
        #expect(try archive.history(of: "s", after: nil, limit: 10).last?.version == version)
    }

    /// A database of schema 2 gets each session's totals computed by the migration.
    @Test(.enabled(if: withPostgres)) func theMigrationCountsWhatIsStoredAlready() throws {
        let database = try TestDatabase()
        try database.sql(
            PostgresSchema.migrations[0] + PostgresSchema.migrations[1]
                + """
                CREATE TABLE switchyard_schema(version bigint NOT NULL); INSERT INTO switchyard_schema VALUES(2);
                INSERT INTO switchyard_sessions VALUES('s', 'todo', 2, '{}', 1, 1, true);
                INSERT INTO switchyard_history(session, version, time, source, request, visible_path, state)
                    VALUES('s', 1, 1, 'api', '12345', '', '1234567890'), ('s', 2, 1, 'api', '123', '', NULL);
                INSERT INTO switchyard_replies(session, key, fingerprint, status, headers, body)
                    VALUES('s', 'k', 1, 200, 'ab', '1234');
                """)
        let archive = try PostgresSessionArchive(url: database.url, connections: 1)
        archive.close()
        #expect(
            try database.sql("SELECT history_bytes, reply_count, reply_bytes FROM switchyard_sessions") == [
                ["18", "1", "6"]
            ])
    }
}
