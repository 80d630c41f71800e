import Foundation
import Switchyard
import SwitchyardServer
import SwitchyardSessions
import Testing
import TodoDemo

@testable import SQLiteStore

/// Sessions in the SQLite store: what was acknowledged is there after a restart, byte for byte.
@Suite("Durable store")
struct DurableStoreTests {
    @Test func aSessionComesBackAfterARestartByteForByte() throws {
        let store = try TemporaryStore()
        let (id, last, history) = try store.withServer { server, _ in
            let session = try server.createSession()
            try session.logIn()
            try session.must(session.transition(#"{"steps":[{"action":"selectTab","route":"todos"}]}"#))
            try session.must(
                session.transition(
                    #"{"coordinator":"TodosCoordinator","steps":[{"action":"route","route":"create"}]}"#))
            // App data held by a coordinator: a new todo.
            let created = try session.must(session.event(#"{"name":"create","fields":{"name":"Water the plants"}}"#))
            #expect(created.text.contains("Water the plants"))
            let state = try session.state()
            return (session.id, state, try session.history().json)
        }
        try store.withServer { server, _ in
            #expect(server.api.sessionCount == 0, "restored lazily, not at start")
            let state = try server.get("/api/sessions/\(id)")
            #expect(state.status == 200)
            #expect(state.text == last.text)
            #expect(state.header("ETag") == last.header("ETag"))
            #expect(try server.get("/api/sessions/\(id)/history").json == history)
            #expect(server.api.sessionCount == 1)
            let metrics = try server.get("/metrics").text
            #expect(metrics.contains("switchyard_sessions_restored_total 1"))
            #expect(metrics.contains("switchyard_store_commits_total"))
            // It keeps working where it left off.
            let session = DemoSession(server: server, id: id, created: state)
            let next = try session.must(session.deepLink("stinsenapp://todo/water-the-plants"))
            #expect(next.version == last.version! + 1)
        }
    }

    /// Versions are stored as deltas with a snapshot every 16 (``StateDelta``): each one, over several segments,
    /// reads back as answered, before and after a restart, and a restart carries on from a delta.
    @Test func versionsStoredAsDeltasReadBackAsAnswered() throws {
        let store = try TemporaryStore()
        let (id, answers) = try store.withServer { server, _ in
            let session = try server.createSession()
            try session.logIn()
            var answers: [Int: String] = [:]
            for turn in 0..<38 {
                let body =
                    turn % 2 == 0
                    ? #"{"coordinator":"TodosCoordinator","steps":[{"action":"push","route":"todo","input":"t\#(turn)"}]}"#
                    : #"{"coordinator":"TodosCoordinator","steps":[{"action":"pop"}]}"#
                if turn == 0 { try session.must(session.transition(#"{"action":"selectTab","route":"todos"}"#)) }
                let reply = try session.must(session.transition(body, headers: [("Prefer", "return=minimal")]))
                let version = try #require(reply.version)
                answers[version] = try server.get(session.base + "/versions/\(version)").text
            }
            return (session.id, answers)
        }
        let rows = try SQLiteConnection(path: store.path)
        #expect(try rows.integer("SELECT count(*) FROM history WHERE base IS NOT NULL") > 30, "deltas are stored")
        #expect(try rows.integer("SELECT count(*) FROM history WHERE base IS NULL AND version % 16 = 0") == 2)
        try store.withServer { server, _ in
            for (version, answer) in answers {
                #expect(try server.get("/api/sessions/\(id)/versions/\(version)").text == answer, "version \(version)")
            }
            let latest = try #require(answers.keys.max())
            let state = try server.get("/api/sessions/\(id)")
            #expect(state.version == latest)
            let session = DemoSession(server: server, id: id, created: state)
            let next = try session.must(
                session.transition(
                    #"{"coordinator":"TodosCoordinator","steps":[{"action":"push","route":"todo","input":"after"}]}"#))
            #expect(next.version == latest + 1)
            #expect(try server.get(session.base + "/versions/\(latest)").text == answers[latest])
        }
    }

    /// A session stored by schema 1 keeps its state in its row and none in its history: the next change is
    /// stored whole, not as a delta from a document the store does not hold.
    @Test func aChangeAfterAnEntryWithoutItsDocumentIsStoredWhole() throws {
        let store = try TemporaryStore()
        let id = try store.withServer { server, _ in
            let session = try server.createSession()
            try session.logIn()
            return session.id
        }
        let archive = try store.open()
        let document = try #require(try archive.session(id)?.state)
        archive.close()
        let hex = document.map { String(format: "%02x", $0) }.joined()
        let rows = try SQLiteConnection(path: store.path)
        try rows.execute(
            """
            UPDATE sessions SET state = x'\(hex)' WHERE id = '\(id)';
            UPDATE history SET state = NULL, base = NULL WHERE session = '\(id)';
            """)
        let answered = try store.withServer { server, _ in
            let session = DemoSession(server: server, id: id, created: try server.get("/api/sessions/\(id)"))
            return try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#)).text
        }
        #expect(try rows.integer("SELECT count(*) FROM history WHERE base IS NOT NULL") == 0)
        try store.withServer { server, _ in
            let state = try server.get("/api/sessions/\(id)")
            #expect(state.status == 200)
            #expect(state.json["visible"] == (try JSONValue(parsing: Array(answered.utf8)))["visible"])
        }
    }

    @Test func everyVersionReadsBackAsItWasAnswered() throws {
        let store = try TemporaryStore()
        try store.withServer { server, _ in
            let session = try server.createSession()
            var answers = [0: session.created.json]
            for reply in [
                try session.event(#"{"name":"completeOnboarding"}"#),
                try session.deepLink("stinsenapp://todo/buy-milk"),  // pending while logged out
                try session.event(#"{"name":"login","fields":{"username":"ada"}}"#),  // two versions: login, link
                try session.event(#"{"name":"toggleFavourite","payload":{"id":"buy-milk"}}"#),
            ] {
                var document = try #require(try session.must(reply).json.objectValue)
                document["result"] = nil
                answers[reply.version!] = .object(document)
            }
            #expect(answers.keys.sorted() == [0, 1, 2, 4, 5])
            for (version, answer) in answers {
                let read = try server.get(session.base + "/versions/\(version)")
                #expect(read.status == 200)
                #expect(read.json == answer, "version \(version)")
                #expect(read.header("ETag") == "\"\(version)\"")
            }
            // The login's own version, before the pending link it made possible moved on, is there too.
            let loggedIn = try server.get(session.base + "/versions/3")
            #expect(
                loggedIn.json["visible"]?["path"]?.strings == ["authenticated", "home", "favourites"],
                "\(loggedIn.text)")
            #expect(try server.get(session.base + "/versions/6").json["code"] == "unknownVersion")
            #expect(try server.get(session.base + "/versions/x").status == 400)

            // The whole log, page by page.
            let first = try server.get(session.base + "/history?after=0&limit=2").json["entries"]?.array ?? []
            #expect(first.compactMap { $0["version"]?.int } == [1, 2])
            let rest = try server.get(session.base + "/history?after=2&limit=1000").json["entries"]?.array ?? []
            #expect(rest.compactMap { $0["version"]?.int } == [3, 4, 5])
            #expect(
                rest.compactMap { $0["source"]?.stringValue } == ["event", "deeplink", "event"], "the link completed")
            #expect(try server.get(session.base + "/history?limit=0").status == 400)
        }
    }

    @Test func theMemoryStoreKeepsEarlierVersionsWithinItsLimits() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.must(session.event(#"{"name":"completeOnboarding"}"#))
            #expect(try server.get(session.base + "/versions/1").status == 200)
            #expect(try server.get(session.base + "/versions/0").status == 200, "memory is a store like the others")
        }
        try withServer({ $0.archive = MemorySessionArchive(limits: StoreLimits(historyEntries: 1)) }) { server in
            let session = try server.createSession()
            try session.logIn()
            #expect(try session.state().version == 2)
            let earlier = try server.get(session.base + "/versions/1")
            #expect(earlier.status == 404)
            #expect(earlier.json["code"] == "versionNotKept")
        }
    }

    @Test func keyedRetriesReplayAfterARestart() throws {
        let store = try TemporaryStore()
        let key = [("Idempotency-Key", "walk-1")]
        let createKey = [("Idempotency-Key", "create-1")]
        let (created, answered) = try store.withServer { server, _ in
            let created = try server.post("/api/sessions", nil, headers: createKey)
            #expect(created.status == 201)
            let id = try #require(created.json["session"]?.stringValue)
            let session = DemoSession(server: server, id: id, created: created)
            let answered = try session.must(session.event(#"{"name":"completeOnboarding"}"#, headers: key))
            return (created, answered)
        }
        try store.withServer { server, _ in
            let again = try server.post("/api/sessions", nil, headers: createKey)
            #expect(again.status == 201)
            #expect(again.header("Idempotent-Replayed") == "true")
            #expect(again.text == created.text)
            let id = try #require(created.json["session"]?.stringValue)
            let session = DemoSession(server: server, id: id, created: again)
            let replay = try session.event(#"{"name":"completeOnboarding"}"#, headers: key)
            #expect(replay.status == 200)
            #expect(replay.header("Idempotent-Replayed") == "true")
            #expect(replay.text == answered.text)
            #expect(try session.state().version == answered.version, "applied once")
        }
    }

    @Test func deleteAndExpiryRemoveStoredSessions() throws {
        let store = try TemporaryStore()
        let clock = TestClock()
        let (deleted, idle) = try store.withServer({ $0.now = clock.now }) { server, _ in
            let deleted = try server.createSession()
            let idle = try server.createSession()
            try idle.must(idle.event(#"{"name":"completeOnboarding"}"#))
            #expect(try server.request("DELETE", deleted.base).status == 204)
            return (deleted, idle)
        }
        try store.withServer({ $0.now = clock.now }) { server, archive in
            #expect(try server.get(deleted.base).status == 404)
            let stored = try archive.session(idle.id)
            #expect(stored != nil)
            clock.advance(by: 31 * 60)
            #expect(server.api.expireIdleSessions() == 1, "a stored session that is not in memory expires too")
            let gone = try archive.session(idle.id)
            #expect(gone == nil)
            #expect(try server.get(idle.base).status == 404)
        }
    }

    @Test func aStoredSessionThatIdledPastItsTTLWhileTheServerWasDownIsGone() throws {
        let store = try TemporaryStore()
        let clock = TestClock()
        let session = try store.withServer({ $0.now = clock.now }) { server, _ in
            let session = try server.createSession()
            try session.must(session.event(#"{"name":"completeOnboarding"}"#))
            server.api.expireIdleSessions()  // the sweep records the use
            return session
        }
        clock.advance(by: 31 * 60)
        try store.withServer({ $0.now = clock.now }) { server, archive in
            #expect(try server.get(session.base).status == 404)
            let gone = try archive.session(session.id)
            #expect(gone == nil, "removed when found expired")
        }
    }

    @Test func aChangedSessionIsUsedForExpiryEvenBeforeASweepRecordedIt() throws {
        let store = try TemporaryStore()
        let clock = TestClock()
        let session = try store.withServer({ $0.now = clock.now }) { server, _ in
            let session = try server.createSession()
            try session.must(session.event(#"{"name":"completeOnboarding"}"#))
            return session  // the server stops (or dies) before any sweep
        }
        clock.advance(by: 3 * 60)  // past the 2 minutes of an unused session, well within the 30 of a used one
        try store.withServer({ $0.now = clock.now }) { server, archive in
            server.api.expireIdleSessions()
            let kept = try archive.session(session.id)
            #expect(kept?.version == 1)
            #expect(kept?.used == true)
        }
    }

    @Test func aSessionInMemoryTellsTheStoreItIsStillUsed() throws {
        let store = try TemporaryStore()
        let clock = TestClock()
        try store.withServer({ $0.now = clock.now }) { server, archive in
            let session = try server.createSession()
            try session.must(session.event(#"{"name":"completeOnboarding"}"#))
            for _ in 0..<4 {
                clock.advance(by: 20 * 60)
                #expect(try session.state().status == 200)  // read only: no change is stored
                server.api.expireIdleSessions()
            }
            let kept = try archive.session(session.id)
            #expect(kept != nil, "80 minutes of reads kept it")
        }
    }

    @Test func aStoredSessionTheAppCannotRestoreIsGoneWithAClearProblem() throws {
        let store = try TemporaryStore()
        let (old, other) = try store.withServer { server, _ in
            let old = try server.createSession()
            try old.logIn()
            return (old.id, try server.createSession().id)
        }
        // The next release renamed a route: the stored tree no longer fits.
        let renamed = NavigationApp(name: "todo", root: { RenamedRoot() })
        try store.withServer({ $0.apps = [renamed, TodoDemo.app] }) { server, _ in
            let reply = try server.get("/api/sessions/\(old)")
            #expect(reply.status == 410)
            #expect(reply.json["code"] == "sessionIncompatible")
            #expect(try server.post("/api/sessions/\(old)/events", #"{"name":"logout"}"#).status == 410)
            let metrics = try server.get("/metrics").text
            #expect(metrics.contains("switchyard_sessions_incompatible_total 2"))
            // Every session of the old shape is refused the same way; nothing else is affected: new sessions work.
            #expect(try server.get("/api/sessions/\(other)").status == 410)
            #expect(try server.post("/api/sessions", #"{"app":"todo"}"#).status == 201)
            #expect(try server.get("/healthz").status == 200)
        }
    }

    @Test func aFailedWriteAnswers503AndAcknowledgesNothing() throws {
        let store = try TemporaryStore()
        let faulty = FaultyArchive(try store.open())
        let server = try TestServer { $0.archive = faulty }
        defer {
            server.stop()
            faulty.close()
        }
        let session = try server.createSession()
        try session.must(session.event(#"{"name":"completeOnboarding"}"#))
        let stream = try StreamSubscriber(port: server.port, path: session.base + "/stream")
        #expect(try stream.next()?.id == "1")

        faulty.failing.store(true, ordering: .relaxed)
        let refused = try session.event(#"{"name":"login","fields":{"username":"ada"}}"#)
        #expect(refused.status == 503)
        #expect(refused.json["code"] == "storeUnavailable")
        #expect(refused.header("Retry-After") == "1")
        #expect(try session.state().status == 503, "the store cannot be read either")
        #expect(try server.post("/api/sessions", nil).status == 503)
        #expect(try server.request("DELETE", session.base).status == 503)

        faulty.failing.store(false, ordering: .relaxed)
        let state = try session.state()
        #expect(state.status == 200)
        #expect(state.version == 1, "the refused change is not there")
        #expect(state.json["visible"]?["path"] == ["unauthenticated", "login"])
        // The stream that followed the session was closed without ever showing version 2.
        while let event = try? stream.next(within: 2) { #expect(event.id != "2") }
        try session.must(session.event(#"{"name":"login","fields":{"username":"ada"}}"#))
        #expect(try session.state().version == 2)
    }

    @Test func aFullStoreAnswers503AndRecoversWhenRoomIsMade() throws {
        let store = try TemporaryStore()
        let archive = try store.open(maxBytes: 256 * 1024)
        try store.withServer(archive: archive) { server, _ in
            var sessions: [DemoSession] = []
            var refused: Reply?
            for _ in 0..<2000 {
                let reply = try server.post("/api/sessions", nil)
                if reply.status != 201 {
                    refused = reply
                    break
                }
                let id = try #require(reply.json["session"]?.stringValue)
                sessions.append(DemoSession(server: server, id: id, created: reply))
            }
            let full = try #require(refused, "the cap was never reached")
            #expect(full.status == 503)
            #expect(full.json["code"] == "storeUnavailable")
            #expect(full.header("Retry-After") != nil)
            let count = server.api.sessionCount
            #expect(count == sessions.count, "a refused creation left nothing live")
            for session in sessions.prefix(sessions.count / 2) {
                #expect(try server.request("DELETE", session.base).status == 204)
            }
            #expect(try server.post("/api/sessions", nil).status == 201, "room again: it recovers by itself")
        }
    }
}

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let seconds = Locked(1_800_000_000.0)
    var now: @Sendable () -> Double { { [seconds] in seconds.value } }
    func advance(by delta: Double) { seconds.mutate { $0 += delta } }
}

/// The demo's root as a later release might ship it: its login route is renamed.
final class RenamedRoot: RootCoordinatable {
    let navigation = RootNavigation(initial: \RenamedRoot.onboarding)
    @Root var onboarding = makeOnboarding
    @Root var signIn = makeSignIn

    func makeOnboarding() -> ScreenContent { ScreenContent(title: "Welcome", content: []) }
    func makeSignIn() -> ScreenContent { ScreenContent(title: "Sign in", content: []) }
}

/// A root whose handler changes its data and then fails: the data must not outlive the refusal.
final class CountingRoot: RootCoordinatable, PersistentCoordinator {
    let navigation = RootNavigation(initial: \CountingRoot.main)
    var persistentState = 0
    @Root var main = makeMain

    func makeMain() -> ScreenContent { ScreenContent(title: "Count", content: []) }

    func handle(_ event: FlowEvent) throws -> Bool {
        persistentState += 1
        if event.name == "failAfterCounting" {
            throw NavigationError(code: "refused", category: .conflict, message: "refused after counting")
        }
        return true
    }
}

@Suite("Durable store: what failed changes leave")
struct DurableFailureTests {
    @Test func dataAFailedHandlerChangedIsNotKept() throws {
        let store = try TemporaryStore()
        let app = NavigationApp(name: "counting", root: { CountingRoot() })
        try store.withServer({ $0.apps = [app] }) { server, _ in
            let session = try server.createSession()
            try session.must(session.event(#"{"name":"count","from":"n1"}"#))
            let refused = try session.event(#"{"name":"failAfterCounting","from":"n1"}"#)
            #expect(refused.status == 409)
            // Version 1 with count 1, as stored: not the 2 the failed handler left in memory.
            let state = try session.state()
            #expect(state.version == 1)
            let stored = try server.get(session.base + "/versions/1").json
            #expect(state.json == stored)
            try session.must(session.event(#"{"name":"count","from":"n1"}"#))
            #expect(try server.get("/metrics").text.contains("switchyard_sessions_restored_total 1"))
        }
    }

    @Test func withAStoreTheSessionCapBoundsMemoryNotSessions() throws {
        let store = try TemporaryStore()
        let first = try store.withServer { server, _ in try server.createSession() }
        try store.withServer({ $0.maxSessions = 3 }) { server, _ in
            var created: [DemoSession] = []
            for _ in 0..<10 {
                let session = try server.createSession()  // never 503: the least recently used leave memory
                try session.must(session.event(#"{"name":"completeOnboarding"}"#))
                created.append(session)
            }
            #expect(server.api.sessionCount <= 3)
            // Every one of them is still there, read back from the store on its next request.
            for session in [first] + created {
                let state = try session.state()
                #expect(state.status == 200)
            }
            #expect(try created[0].state().version == 1)
            #expect(server.api.sessionCount <= 3)
        }
    }
}
