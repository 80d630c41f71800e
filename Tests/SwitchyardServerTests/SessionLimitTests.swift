import Switchyard
import SwitchyardSessions
import Testing

/// What one session may hold: field lengths, document size, history and idempotency bytes.
@Suite("Session limits")
struct SessionLimitTests {
    /// A chain of `count` pushes of one todo screen on the todos tab.
    private func pushes(_ count: Int) -> String {
        let steps = Array(repeating: #"{"action":"push","route":"todo","input":"buy-milk"}"#, count: count)
        return #"{"coordinator":"TodosCoordinator","steps":[\#(steps.joined(separator: ","))]}"#
    }

    @Test func aStringOverTheFieldLimitIs422AndChangesNothing() throws {
        try withServer({ $0.maxFieldBytes = 1024 }) { server in
            let session = try server.createSession()
            try session.logIn()
            let before = try session.state()
            let long = String(repeating: "n", count: 1025)
            let refused = try session.event(#"{"name":"create","fields":{"name":"\#(long)"}}"#)
            #expect(refused.status == 422)
            #expect(refused.json["code"] == "fieldTooLong")
            #expect(refused.json["detail"]?.stringValue?.contains("'fields.name'") == true)
            #expect(refused.json["limit"]?.int == 1024)
            #expect(try session.state().body == before.body, "nothing changed")
            let longKey = try session.event(#"{"name":"x","payload":{"\#(long)":1}}"#)
            #expect(longKey.status == 422)
            #expect(try session.deepLink("jumper://io.idevs/" + long).json["code"] == "fieldTooLong")
            #expect(try session.history().json["entries"]?.array?.count == 2, "only the log-in's two changes")
        }
    }

    @Test func theDemoBoundsItsOwnTodos() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            try session.must(
                session.transition(
                    #"{"coordinator":"AuthenticatedCoordinator","steps":[{"action":"focus","route":"todos"},{"action":"route","route":"create"}]}"#
                ))
            let name = String(repeating: "a", count: 121)
            let refused = try session.event(#"{"name":"create","fields":{"name":"\#(name)"}}"#)
            #expect(refused.status == 422)
            #expect(refused.json["code"] == "nameTooLong")
        }
    }

    @Test func aChangeThatWouldPassTheDocumentLimitIsRefusedAndRolledBack() throws {
        try withServer({ $0.maxDocumentBytes = 24 * 1024 }) { server in
            let session = try server.createSession()
            try session.logIn()
            try session.must(
                session.transition(
                    #"{"coordinator":"AuthenticatedCoordinator","steps":[{"action":"focus","route":"todos"}]}"#))
            var last = try session.state()
            var refused: Reply?
            for _ in 0..<200 {
                let reply = try session.transition(pushes(10))
                if reply.status != 200 {
                    refused = reply
                    break
                }
                last = reply
            }
            let problem = try #require(refused, "the document limit was never reached")
            #expect(problem.status == 409)
            #expect(problem.json["code"] == "documentTooLarge")
            #expect(problem.json["limit"]?.int == 24 * 1024)
            let now = try session.state()
            #expect(now.version == last.version, "the refused chain was not applied")
            #expect(now.body.count <= 24 * 1024)
            // The session is not stuck: going back works, and then there is room again.
            try session.must(
                session.transition(#"{"coordinator":"TodosCoordinator","steps":[{"action":"popToRoot"}]}"#))
            try session.must(session.transition(pushes(1)))
        }
    }

    @Test func theHistoryKeepsBoundedBytesAndOmitsLargeBodies() throws {
        try withServer({ $0.archive = MemorySessionArchive(limits: StoreLimits(historyBytes: 16 * 1024)) }) { server in
            let session = try server.createSession()
            try session.logIn()
            // Handled by the tabs (a handled event commits a version); the padding is ignored but was kept.
            let padding = String(repeating: "p", count: 3000)
            for _ in 0..<40 {
                try session.must(
                    session.event(#"{"name":"toggleFavourite","payload":{"id":"buy-milk","pad":"\#(padding)"}}"#))
            }
            let history = try session.history()
            #expect(history.body.count < 20 * 1024, "\(history.body.count) bytes")
            let entries = try #require(history.json["entries"]?.array)
            #expect(entries.count <= 6, "the oldest entries were dropped")
            #expect(entries.last?["version"]?.int == (try session.state().version))
            #expect(entries.last?["request"]?["payload"]?["pad"]?.stringValue == padding)

            // Over 4 KiB in all (each field within its limit): kept as a placeholder.
            let large = #""a":"\#(padding)","b":"\#(padding)""#
            try session.must(session.event(#"{"name":"toggleFavourite","payload":{"id":"buy-milk",\#(large)}}"#))
            let omitted = try #require(try session.history().json["entries"]?.array?.last?["request"])
            #expect(omitted["bytes"]?.int ?? 0 > 6000)
            #expect(omitted["omitted"] != nil)
        }
    }

    @Test func idempotencyRepliesAreKeptWithinTheirByteBudget() throws {
        try withServer({ $0.maxIdempotencyBytes = 40 * 1024 }) { server in
            let session = try server.createSession()
            try session.logIn()
            let tabs = #"{"coordinator":"AuthenticatedCoordinator","steps":[{"action":"focus","route":"todos"}]}"#
            let first = try session.must(session.transition(tabs, headers: [("Idempotency-Key", "k0")]))
            #expect(
                try session.transition(tabs, headers: [("Idempotency-Key", "k0")]).header("Idempotent-Replayed")
                    == "true")
            for index in 1...20 {
                try session.must(session.transition(pushes(1), headers: [("Idempotency-Key", "k\(index)")]))
            }
            // k0's reply (about 10 KB) has been given up to stay in budget, not its key: the retry is answered
            // with the answer rebuilt from its version, byte for byte, and applies nothing.
            let version = try session.state().version
            let again = try session.transition(tabs, headers: [("Idempotency-Key", "k0")])
            #expect(again.header("Idempotent-Replayed") == "true")
            #expect(again.text == first.text)
            #expect(try session.state().version == version)
            let newest = try session.transition(pushes(1), headers: [("Idempotency-Key", "k20")])
            #expect(newest.header("Idempotent-Replayed") == "true")
        }
    }
}
