import Foundation
import HTTPTestSupport
import SwitchyardServer
import Synchronization
import Testing

@testable import PostgresStore

/// What only the PostgreSQL store does: give up on a database that does not answer.
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
                    version: made, time: 2000 + Double(made), source: "api", request: Array(#"{"n":\#(made)}"#.utf8),
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

    /// The database freezes under an archive in use: every call (a read, a write, a caller waiting for one of the
    /// busy connections) fails with `.unavailable` within the timeout; once it answers again the archive works
    /// with new connections, and its listener reconnects and says `.resumed`.
    @Test(.enabled(if: withPostgres)) func aFrozenDatabaseCostsEachCallTheTimeoutAndTheArchiveRecovers() throws {
        let database = try TestDatabase()
        let relay = try FreezableRelay(upstreamPort: try #require(URLComponents(string: database.url)?.port))
        defer { relay.stop() }
        let archive = try PostgresSessionArchive(
            url: relay.url(database: database.name), connections: 2, timeout: .seconds(1))
        defer { archive.close() }
        let heard = Mutex<[ArchiveNotice]>([])
        archive.follow { notice in heard.withLock { $0.append(notice) } }
        try archive.apply([.create(Self.session("s"), creation: nil)])
        try archive.apply([Self.change("s", from: 0)])
        #expect(eventually { heard.withLock { $0 } == [.changed(session: "s", version: 1)] }, "the listener listens")

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

        #expect(eventually(within: 10) { (try? archive.version(of: "s")) == 1 })
        #expect(eventually(within: 10) { heard.withLock { $0.contains(.resumed) } }, "the listener did not resume")
        try archive.apply([Self.change("s", from: 1)])
        #expect(eventually { heard.withLock { $0.last } == .changed(session: "s", version: 2) })
    }

    /// Once a call ran out of time, the others do not each wait for a frozen database: one call at a time (a probe)
    /// waits, the rest are refused at once, and the archive says it is unavailable until one gets an answer.
    @Test(.enabled(if: withPostgres)) func aDatabaseThatStoppedAnsweringIsAskedByOneCallAtATime() throws {
        let database = try TestDatabase()
        let relay = try FreezableRelay(upstreamPort: try #require(URLComponents(string: database.url)?.port))
        defer { relay.stop() }
        let archive = try PostgresSessionArchive(
            url: relay.url(database: database.name), connections: 4, timeout: .seconds(1))
        defer { archive.close() }
        try archive.apply([.create(Self.session("s"), creation: nil)])
        #expect(archive.condition == .ready)

        relay.freeze()
        #expect(throws: ArchiveError.self) { _ = try archive.version(of: "s") }
        guard case .unavailable = archive.condition else {
            Issue.record("a timed-out call leaves the archive \(archive.condition)")
            return
        }
        // A probe waits for the frozen database; meanwhile every other call is refused without waiting.
        let probe = DispatchGroup()
        probe.enter()
        onNewThread {
            _ = try? archive.version(of: "s")
            probe.leave()
        }
        Thread.sleep(forTimeInterval: 0.2)
        for _ in 0..<5 {
            let start = ContinuousClock.now
            #expect(throws: ArchiveError.self) { _ = try archive.version(of: "s") }
            #expect(start.duration(to: .now) < .milliseconds(200), "a call waited for a database known to be silent")
        }
        probe.wait()
        relay.thaw()
        #expect(eventually(within: 10) { (try? archive.version(of: "s")) == 0 })
        #expect(archive.condition == .ready)
    }
}
