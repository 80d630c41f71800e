import Foundation
import Switchyard
import SwitchyardServer
import SwitchyardSessions
import Synchronization
import Testing
import TodoDemo

/// Two nodes (two servers in this process) sharing one ``MemorySessionArchive``: any node serves any session,
/// correctly, and streams follow changes made on the other node.
@Suite("Nodes sharing a store")
struct SharedArchiveTests {
    /// Two servers on one shared archive; `quietB` keeps node B from following notices (it only reconciles).
    func withNodes<Result>(
        quietB: Bool = false, _ body: (TestServer, TestServer, MemorySessionArchive) throws -> Result
    ) throws -> Result {
        let archive = MemorySessionArchive(nodes: .several)
        let a = try TestServer { $0.archive = archive }
        defer { a.stop() }
        let b = try TestServer { $0.archive = quietB ? DeafArchive(archive) : archive }
        defer { b.stop() }
        return try body(a, b, archive)
    }

    @Test func aSessionCreatedOnOneNodeIsServedByTheOther() throws {
        try withNodes { a, b, _ in
            let session = try a.createSession()
            let read = try b.get(session.base)
            #expect(read.status == 200)
            #expect(read.json == session.created.json)
            #expect(read.header("ETag") == session.created.header("ETag"))
        }
    }

    @Test func aReadOnTheOtherNodeShowsTheAcknowledgedChange() throws {
        try withNodes { a, b, _ in
            let onA = try a.createSession()
            let onB = DemoSession(server: b, id: onA.id, created: onA.created)
            _ = try onB.state()  // B now holds a copy
            let changed = try onA.must(onA.event(#"{"name":"completeOnboarding"}"#))
            let read = try onB.state()
            #expect(read.version == changed.version)
            var document = try #require(changed.json.objectValue)
            document["result"] = nil
            #expect(read.json == .object(document))
        }
    }

    /// Node B hears of A's change, or (quiet) hears nothing: its copy is compared with the store all the same.
    @Test(arguments: [false, true]) func aChangeOnAStaleCopyAppliesToTheLatestVersion(quietB: Bool) throws {
        try withNodes(quietB: quietB) { a, b, _ in
            let onA = try a.createSession()
            let onB = DemoSession(server: b, id: onA.id, created: onA.created)
            _ = try onB.state()
            try onA.logIn()
            let latest = try #require(try onA.state().version)
            let moved = try onB.must(onB.transition(#"{"steps":[{"action":"selectTab","route":"todos"}]}"#))
            #expect(moved.version == latest + 1)
            // With a precondition naming the version B had seen: 412 with the current state, nothing applied.
            let stale = try onB.transition(
                #"{"expectedVersion":\#(latest),"steps":[{"action":"selectTab","route":"profile"}]}"#)
            #expect(stale.status == 412)
            #expect(stale.json["currentVersion"]?.int == latest + 1)
            #expect(stale.json["state"]?["version"]?.int == latest + 1)
            #expect(try onA.state().version == latest + 1)
        }
    }

    /// Node B hears of A's change, or (quiet) hears nothing: its copy is compared with the store all the same.
    @Test(arguments: [false, true]) func aRequestOnlyTheLatestVersionCanServeIsNotRefusedByAStaleCopy(
        quietB: Bool
    ) throws {
        try withNodes(quietB: quietB) { a, b, _ in
            let onA = try a.createSession()
            let onB = DemoSession(server: b, id: onA.id, created: onA.created)
            _ = try onB.state()  // B holds the onboarding state
            try onA.logIn()
            // Only the logged-in state has a todos coordinator: B's copy must not be the one that answers.
            let reply = try onB.transition(
                #"{"coordinator":"TodosCoordinator","steps":[{"action":"route","route":"create"}]}"#)
            #expect(reply.status == 200, "\(reply.text)")
        }
    }

    @Test func aChangeOnACopyNoNoticeMovedOnDoesNotReadTheStoreFirst() throws {
        let deaf = DeafArchive(MemorySessionArchive(nodes: .several))
        let server = try TestServer { $0.archive = deaf }
        defer { server.stop() }
        let session = try server.createSession()
        _ = try session.state()
        let before = deaf.checks.withLock { $0 }
        try session.must(session.event(#"{"name":"completeOnboarding"}"#))
        #expect(deaf.checks.withLock { $0 } == before, "a change that writes is checked by its compare-and-set")
        // Refused without a write: the copy is compared with the store before the refusal is given.
        let refused = try session.transition(#"{"coordinator":"TodosCoordinator","steps":[{"action":"pop"}]}"#)
        #expect(refused.status >= 400)
        #expect(deaf.checks.withLock { $0 } == before + 1)
        // A key another node may have answered: read first.
        _ = try session.transition(
            #"{"steps":[{"action":"selectTab","route":"todos"}]}"#, headers: [("Idempotency-Key", "k1")])
        #expect(deaf.checks.withLock { $0 } == before + 2)
    }

    @Test func aPreconditionOnTheLatestVersionIsMetOnACopyThatHeardNothing() throws {
        try withNodes(quietB: true) { a, b, _ in
            let onA = try a.createSession()
            let onB = DemoSession(server: b, id: onA.id, created: onA.created)
            _ = try onB.state()
            try onA.logIn()
            let latest = try #require(try onA.state().version)
            let moved = try onB.transition(
                #"{"expectedVersion":\#(latest),"steps":[{"action":"selectTab","route":"todos"}]}"#)
            #expect(moved.status == 200, "\(moved.text)")
            #expect(moved.version == latest + 1)
        }
    }

    /// One change that would write, one refused without a write, each on a copy of its own that heard nothing of
    /// the deletion: neither is answered from the copy.
    @Test(arguments: [#"{"name":"completeOnboarding"}"#, #"{"name":"noSuchEvent"}"#])
    func aChangeOnACopyThatHeardNothingOfItsDeletionIsNotFound(event: String) throws {
        try withNodes(quietB: true) { a, b, _ in
            let onA = try a.createSession()
            let onB = DemoSession(server: b, id: onA.id, created: onA.created)
            _ = try onB.state()
            #expect(try a.request("DELETE", onA.base).status == 204)
            let reply = try onB.event(event)
            #expect(reply.status == 404, "\(reply.text)")
        }
    }

    @Test func anIdempotencyKeyHoldsAcrossNodes() throws {
        try withNodes { a, b, _ in
            let onA = try a.createSession()
            let onB = DemoSession(server: b, id: onA.id, created: onA.created)
            _ = try onB.state()
            let key = [("Idempotency-Key", "key-1")]
            let first = try onA.must(onA.event(#"{"name":"completeOnboarding"}"#, headers: key))
            let retry = try onB.event(#"{"name":"completeOnboarding"}"#, headers: key)
            #expect(retry.status == first.status)
            #expect(retry.header("Idempotent-Replayed") == "true")
            #expect(retry.text == first.text)
            #expect(try onA.state().version == first.version)
        }
    }

    @Test func aKeyedRequestThatMadeNoVersionReplaysOnTheOtherNode() throws {
        try withNodes { a, b, _ in
            let onA = try a.createSession()
            let onB = DemoSession(server: b, id: onA.id, created: onA.created)
            try onA.logIn()
            _ = try onB.state()  // B's copy is current: only the key is new to it
            let key = [("Idempotency-Key", "no-op")]
            let tab = #"{"steps":[{"action":"selectTab","route":"todos"}]}"#
            _ = try onA.must(onA.transition(tab))
            let first = try onA.must(onA.transition(tab, headers: key))  // the tab is selected already
            #expect(first.version == (try onB.state().version))
            let retry = try onB.transition(tab, headers: key)
            #expect(retry.header("Idempotent-Replayed") == "true")
            #expect(retry.text == first.text)
        }
    }

    @Test func aKeyedCreationReplaysOnTheOtherNode() throws {
        try withNodes { a, b, _ in
            let key = [("Idempotency-Key", "create-1")]
            let created = try a.post("/api/sessions", nil, headers: key)
            #expect(created.status == 201)
            let retry = try b.post("/api/sessions", nil, headers: key)
            #expect(retry.status == 201)
            #expect(retry.header("Idempotent-Replayed") == "true")
            #expect(retry.json["session"] == created.json["session"])
            #expect(b.api.sessionCount == 1, "B read the session, created none")
        }
    }

    @Test func writersOnBothNodesLoseNoUpdate() throws {
        try withNodes { a, b, _ in
            let session = try a.createSession()
            try session.logIn()
            let start = try #require(try session.state().version)
            let accepted = Atomic<Int>(0)
            let refused = Mutex<[String]>([])
            onThreads(8) { index in
                let node = index.isMultiple(of: 2) ? a : b
                for _ in 0..<10 {
                    // Every push makes a version.
                    let reply = try? node.post(
                        session.base + "/transitions",
                        #"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"green"}]}"#)
                    if reply?.status == 200 {
                        accepted.add(1, ordering: .relaxed)
                    } else {
                        refused.withLock { $0.append("\(reply?.status ?? 0) \(reply?.text ?? "")") }
                    }
                }
            }
            let end = try #require(try b.get(session.base).version)
            #expect(accepted.load(ordering: .relaxed) == 80, "refused: \(refused.withLock { $0 })")
            #expect(end - start == accepted.load(ordering: .relaxed))
            #expect(try a.get(session.base).version == end)
        }
    }

    @Test func aStreamOnOneNodeShowsEveryVersionMadeOnTheOther() throws {
        try withNodes { a, b, _ in
            let session = try a.createSession()
            let stream = try StreamSubscriber(port: b.port, path: session.base + "/stream")
            #expect(try stream.next()?.id == "0")
            try session.logIn()
            var last = try #require(try session.state().version)
            for round in 0..<20 {
                let tab = round.isMultiple(of: 2) ? "todos" : "profile"
                last = try #require(
                    try session.must(session.transition(#"{"steps":[{"action":"selectTab","route":"\#(tab)"}]}"#))
                        .version)
            }
            var seen: [Int] = []
            while seen.last != last, let event = try stream.next() {
                seen.append(try #require(event.id.flatMap(Int.init)))
                #expect(event.json["version"]?.int == seen.last)
            }
            #expect(seen == Array(1...last))
        }
    }

    @Test func reconcilingCatchesUpAStreamWhoseNoticesWereLost() throws {
        try withNodes(quietB: true) { a, b, _ in
            let session = try a.createSession()
            let stream = try StreamSubscriber(port: b.port, path: session.base + "/stream")
            #expect(try stream.next()?.id == "0")
            let changed = try session.must(session.event(#"{"name":"completeOnboarding"}"#))
            b.api.reconcileFollowedSessions()
            let event = try #require(try stream.nextState(atLeast: 1))
            #expect(event.id == String(changed.version ?? -1))
        }
    }

    @Test func aStreamReconnectingToTheOtherNodeGetsWhatItMissed() throws {
        try withNodes { a, b, _ in
            let session = try a.createSession()
            try session.logIn()
            let last = try #require(
                try session.must(session.transition(#"{"steps":[{"action":"selectTab","route":"todos"}]}"#)).version)
            let stream = try StreamSubscriber(port: b.port, path: session.base + "/stream", lastEventID: "0")
            var seen: [Int] = []
            while seen.last != last, let event = try stream.next() {
                seen.append(try #require(event.id.flatMap(Int.init)))
            }
            #expect(seen == Array(1...last))
            let current = try StreamSubscriber(port: b.port, path: session.base + "/stream", lastEventID: "\(last)")
            #expect(try current.next(within: 0.5) == nil, "it saw the current version: nothing to send")
            let odd = try StreamSubscriber(
                port: b.port, path: session.base + "/stream", lastEventID: String(Int.max))
            #expect(odd.status == 200)
            #expect(try odd.next()?.id == String(last), "an id it cannot have seen: the current state")
        }
    }

    @Test func deletingOnOneNodeEndsTheSessionOnTheOther() throws {
        try withNodes { a, b, _ in
            let session = try a.createSession()
            let stream = try StreamSubscriber(port: b.port, path: session.base + "/stream")
            #expect(try stream.next()?.id == "0")
            #expect(try a.request("DELETE", session.base).status == 204)
            #expect(try stream.next(within: 5) == nil, "the stream ended")
            #expect(try b.get(session.base).status == 404)
        }
    }
}

/// A shared archive that tells nothing: a node on it only learns of other nodes' changes by reconciling.
final class DeafArchive: SharedSessionArchive {
    let inner: MemorySessionArchive
    /// How many times a node asked whether a session moved on (``session(_:unlessAt:reply:)``).
    let checks = Mutex(0)
    init(_ inner: MemorySessionArchive) { self.inner = inner }
    func session(_ id: String, unlessAt version: Int, reply key: String?) throws(ArchiveError) -> StoredSessionRead {
        checks.withLock { $0 += 1 }
        return try inner.session(id, unlessAt: version, reply: key)
    }
    func apply(_ writes: [ArchiveWrite]) throws(ArchiveError) { try inner.apply(writes) }
    func session(_ id: String) throws(ArchiveError) -> StoredSession? { try inner.session(id) }
    func version(of session: String) throws(ArchiveError) -> Int? { try inner.version(of: session) }
    func sessionIDs(ofApp app: String, after: String?, limit: Int) throws(ArchiveError) -> [String] {
        try inner.sessionIDs(ofApp: app, after: after, limit: limit)
    }
    func versions(of sessions: [String]) throws(ArchiveError) -> [String: Int] { try inner.versions(of: sessions) }
    func history(of session: String, after: Int?, limit: Int) throws(ArchiveError) -> [StoredChange] {
        try inner.history(of: session, after: after, limit: limit)
    }
    func state(of session: String, at version: Int) throws(ArchiveError) -> [UInt8]? {
        try inner.state(of: session, at: version)
    }
    func creation(_ key: String) throws(ArchiveError) -> StoredReply? { try inner.creation(key) }
    func expire(usedBefore: Double, unusedBefore: Double) throws(ArchiveError) -> [String] {
        try inner.expire(usedBefore: usedBefore, unusedBefore: unusedBefore)
    }
    func follow(_ observer: @escaping @Sendable (ArchiveNotice) -> Void) {}
    func close() { inner.close() }
}
