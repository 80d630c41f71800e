import Foundation
import Switchyard
import SwitchyardServer
import SwitchyardSessions
import Testing

/// An `Idempotency-Key` is remembered for the session's latest 1,024 keyed requests, whatever their answers weigh:
/// a retry of any of them is answered as the first time (rebuilt from its version when its bytes were given up)
/// and applies nothing twice, in memory and after a restart.
@Suite("Idempotency keys within their retention")
struct IdempotencyRetentionTests {
    /// Answers over 16 KiB are kept as their version only, and the history in memory keeps every version the tests
    /// make (200 of them, 256 KiB: more than the in-memory default), so that each can be rebuilt.
    private static func keepingHistory(_ configuration: inout ServerConfiguration) {
        configuration.maxIdempotencyBytes = 16 * 1024
        configuration.archive = MemorySessionArchive(
            limits: StoreLimits(historyEntries: 200, historyBytes: 256 * 1024, replies: 64, replyBytes: 128 * 1024))
    }

    /// Pushes `count` screens on the Settings stack, each under its own key; returns the keys with their answers.
    private func pushes(_ session: DemoSession, count: Int) throws -> [(key: String, reply: Reply)] {
        try session.logIn()
        try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#))
        var sent: [(key: String, reply: Reply)] = []
        for index in 0..<count {
            let route = index % 2 == 0 ? "green" : "yellow"
            let key = "push-\(index)"
            let reply = try session.must(
                session.transition(
                    #"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"\#(route)"}]}"#,
                    headers: [("Idempotency-Key", key)]))
            sent.append((key, reply))
        }
        return sent
    }

    private func retry(_ session: DemoSession, _ index: Int, key: String) throws -> Reply {
        let route = index % 2 == 0 ? "green" : "yellow"
        return try session.transition(
            #"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"\#(route)"}]}"#,
            headers: [("Idempotency-Key", key)])
    }

    @Test func answersPastTheByteBudgetAreRebuiltNotAppliedAgain() throws {
        try withServer(Self.keepingHistory) { server in
            let session = try server.createSession()
            let sent = try pushes(session, count: 60)  // ~5 KB answers: most are kept as their version only
            let version = try session.state().version
            for (index, first) in sent.enumerated() {
                let retry = try retry(session, index, key: first.key)
                #expect(retry.status == 200)
                #expect(retry.header("Idempotent-Replayed") == "true")
                #expect(retry.header("ETag") == first.reply.header("ETag"), "key \(first.key)")
                #expect(retry.text == first.reply.text, "key \(first.key): rebuilt byte for byte")
            }
            #expect(try session.state().version == version, "a retry applied its push again")
        }
    }

    @Test func everyKeyIsRememberedAfterARestart() throws {
        let store = try TemporaryStore()
        let address = ServerAddress()
        let (id, sent, version): (String, [(key: String, reply: Reply)], Int?) = try {
            let server = try store.server(at: address)
            defer { server.stop() }
            let session = try server.createSession()
            let sent = try pushes(session, count: 40)
            return (session.id, sent, try session.state().version)
        }()
        let server = try store.server(at: address)
        defer { server.stop() }
        let session = DemoSession(server: server, id: id, created: sent[0].reply)
        for (index, first) in sent.enumerated() {
            let retry = try retry(session, index, key: first.key)
            #expect(retry.status == 200, "key \(first.key): \(retry.text.prefix(200))")
            #expect(retry.header("ETag") == first.reply.header("ETag"), "key \(first.key)")
            #expect(retry.text == first.reply.text, "key \(first.key): rebuilt byte for byte")
        }
        #expect(try session.state().version == version, "a retry read back from the store applied again")
    }

    /// A guard's redirect commits although it is answered 409: past the byte budget it is kept as its version and
    /// error, and its retry is answered as the first time, never run again.
    @Test func aRedirectPastTheByteBudgetIsReplayedNotRedirectedAgain() throws {
        try withServer(Self.keepingHistory) { server in
            let session = try server.createSession()
            try session.logIn()
            try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#))
            let admin = #"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"admin"}]}"#
            let first = try session.transition(admin, headers: [("Idempotency-Key", "admin-1")])
            #expect(first.status == 409)
            #expect(first.json["code"] == "redirected")
            _ = try pushes(session, count: 30)  // push the redirect's answer out of the budget
            let version = try session.state().version
            let retry = try session.transition(admin, headers: [("Idempotency-Key", "admin-1")])
            #expect(retry.status == 409)
            #expect(retry.header("Idempotent-Replayed") == "true")
            #expect(retry.text == first.text, "rebuilt byte for byte")
            #expect(try session.state().version == version, "the redirect ran again")
        }
    }

    @Test func aKeyWhoseVersionIsNoLongerKeptIsRefusedNotApplied() throws {
        try withServer({ configuration in
            configuration.maxIdempotencyBytes = 4 * 1024
            configuration.archive = MemorySessionArchive(limits: StoreLimits(historyEntries: 5))
        }) { server in
            let session = try server.createSession()
            let sent = try pushes(session, count: 30)
            let version = try session.state().version
            let oldest = try retry(session, 0, key: sent[0].key)
            #expect(oldest.status == 409)
            #expect(oldest.json["code"] == "replayUnavailable")
            #expect(try session.state().version == version, "the oldest key applied again")
        }
    }
}
