import Foundation
import SwitchyardClient
import SwitchyardJSON
import Testing

/// `SwitchyardClient`'s follower: the event-stream reader, the version chain, and following a live session over
/// real HTTP to its end.
@Suite("Swift client: following a session")
struct ClientFollowTests {
    @Test func eventsAreReadWhereverTheChunksAreCut() {
        let stream = Array(
            ": heartbeat\r\nid: 7\r\nevent: state\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\nretry: 900\nevent: patch\ndata: [é]\n\n"
                .utf8)
        for cut in 0...stream.count {
            var parser = EventStreamParser()
            let events = parser.feed(stream[..<cut]) + parser.feed(stream[cut...])
            #expect(
                events == [
                    ServerSentEvent(type: "state", data: "{\"a\":\n1}", id: "7"),
                    ServerSentEvent(type: "patch", data: "[é]", id: "7"),
                ], "cut at \(cut)")
            #expect(parser.retryMilliseconds == 900)
        }
    }

    @Test func aPatchThatDoesNotFollowOnIsAGap() throws {
        let state = #"{"session":"s","version":3,"app":{"name":"todo","version":1},"visible":{"path":["a"]}}"#
        guard case .document(let three) = StreamStep.of(ServerSentEvent(type: "state", data: state), after: nil) else {
            Issue.record("a state document")
            return
        }
        let next = #"[{"op":"test","path":"/version","value":3},{"op":"replace","path":"/version","value":4}]"#
        guard case .document(let four) = StreamStep.of(ServerSentEvent(type: "patch", data: next), after: three) else {
            Issue.record("the next version")
            return
        }
        #expect(four.version == 4 && four.visiblePath == ["a"])
        guard case .gap = StreamStep.of(ServerSentEvent(type: "patch", data: next), after: four) else {
            Issue.record("a patch from version 3 on version 4 is a gap")
            return
        }
        guard case .gap = StreamStep.of(ServerSentEvent(type: "state", data: state), after: four) else {
            Issue.record("a state older than the one held is a gap")
            return
        }
    }

    @Test func aFollowerSeesEveryChangeThenTheSessionsEnd() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let session = try server.createSession()
        let follower = SessionFollower(
            server: try #require(URL(string: "http://127.0.0.1:\(server.port)")), session: session.id)
        let watchdog = Task {  // a follower that never ends fails the test instead of hanging it
            try await Task.sleep(for: .seconds(60))
            follower.stop()
        }
        defer { watchdog.cancel() }
        var versions: [Int] = []
        var connections: [ConnectionState] = []
        var changed = false
        for await update in follower.updates() {
            switch update {
            case .state(let document):
                versions.append(document.version)
                if !changed {
                    changed = true
                    try session.must(session.event(#"{"name":"completeOnboarding"}"#))
                    try session.logIn()
                    for _ in 0..<10 {
                        try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#))
                        try session.must(session.transition(#"{"action":"selectTab","route":"todos"}"#))
                    }
                }
                let now = try session.state()
                if document.version == now.version {
                    #expect(document.json == now.json, "the follower holds what the server holds")
                    #expect(try server.request("DELETE", "/api/sessions/\(session.id)").status == 204)
                }
            case .connection(let state):
                connections.append(state)
            }
        }
        #expect(versions.first == 0)
        #expect(versions == versions.sorted(), "in order")
        #expect(connections.first == .connecting && connections.contains(.live))
        guard case .failed(let problem)? = connections.last else {
            Issue.record("a deleted session ends the follower: \(connections)")
            return
        }
        #expect(problem.status == 404)
    }

    /// The server stops and starts again (on its store, at the same address) while the follower follows, three
    /// times, with changes made while the follower was away: it reconnects by itself, the server replays what it
    /// missed from `Last-Event-ID`, and it ends on the server's state.
    @Test func aFollowerCarriesOnAcrossServerRestarts() async throws {
        let store = try TemporaryStore()
        let address = ServerAddress()
        func start() throws -> TestServer { try store.server(at: address) }
        var server = try start()
        // Used at once: a session never changed expires after 2 min (unusedSessionTTL), which a slow run can reach.
        let created = try server.createSession()
        try created.must(created.event(#"{"name":"completeOnboarding"}"#))
        let id = created.id
        let follower = SessionFollower(
            server: try #require(URL(string: "http://127.0.0.1:\(address.port)")), session: id)
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            follower.stop()
        }
        defer { watchdog.cancel() }
        var restarts = 0
        var reconnections = 0
        var last = -1
        var expected = -1
        for await update in follower.updates() {
            switch update {
            case .state(let document):
                #expect(document.version > last, "in order, each version once")
                last = document.version
                guard document.version == expected || expected < 0 else { continue }
                if restarts == 3 {
                    #expect(document.json == (try server.get("/api/sessions/\(id)")).json)
                    follower.stop()
                    continue
                }
                // Away: the server stops, and starts again; changes are made before the follower is back.
                server.stop()
                server = try start()
                restarts += 1
                let session = DemoSession(server: server, id: id, created: try server.get("/api/sessions/\(id)"))
                if restarts == 1 {
                    try session.must(session.event(#"{"name":"login","fields":{"username":"ada"}}"#))
                } else {
                    try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#))
                    try session.must(session.transition(#"{"action":"selectTab","route":"todos"}"#))
                }
                expected = try #require(try session.state().version)
            case .connection(.reconnecting):
                reconnections += 1
            case .connection:
                break
            }
        }
        server.stop()
        #expect(restarts == 3 && last == expected, "it reached the server's last version \(expected): \(last)")
        #expect(reconnections >= 3)
    }
}
