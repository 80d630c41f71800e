import Foundation
import SwitchyardClient
import SwitchyardJSON
import Testing

/// `SwitchyardClient`'s intent queue: intents sent in order, each applied once with its stable `Idempotency-Key`,
/// kept in a file while the server is away, refused for good with the typed problem.
@Suite("Swift client: intents")
struct ClientIntentTests {
    static let settings = #"{"action":"selectTab","route":"settings"}"#
    static let todos = #"{"action":"selectTab","route":"todos"}"#

    /// Collects `count` deliveries (or fewer, when the queue stops first).
    static func collect(_ deliveries: AsyncStream<IntentQueue.Delivery>, _ count: Int) async -> [IntentQueue.Delivery] {
        var collected: [IntentQueue.Delivery] = []
        for await delivery in deliveries {
            collected.append(delivery)
            if collected.count == count { break }
        }
        return collected
    }

    @Test func intentsAreAppliedInOrderEachOnce() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let session = try server.createSession()
        let queue = try IntentQueue(
            server: try #require(URL(string: "http://127.0.0.1:\(server.port)")), session: session.id)
        defer { queue.stop() }
        let deliveries = queue.deliveries()
        try queue.send(.event(#"{"name":"completeOnboarding"}"#))
        try queue.send(.event(#"{"name":"login","fields":{"username":"ada"}}"#))
        for index in 0..<20 { try queue.send(.transition(index.isMultiple(of: 2) ? Self.settings : Self.todos)) }
        let delivered = await Self.collect(deliveries, 22)
        #expect(delivered.count == 22)
        #expect(delivered.allSatisfy { if case .applied = $0 { true } else { false } })
        #expect(queue.pending.isEmpty)
        let history = try server.get("/api/sessions/\(session.id)/history?limit=1000").json["entries"]?.array ?? []
        #expect(history.count == 22, "one version per intent")
    }

    @Test func aRefusedIntentArrivesAsItsProblemAndTheNextGoesOn() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let session = try server.createSession()
        try session.logIn()
        try session.must(session.transition(Self.settings))
        let queue = try IntentQueue(
            server: try #require(URL(string: "http://127.0.0.1:\(server.port)")), session: session.id)
        defer { queue.stop() }
        let deliveries = queue.deliveries()
        try queue.send(
            .transition(#"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"admin"}]}"#))
        try queue.send(.transition(#"{"action":"selectTab","route":"nowhere"}"#))
        try queue.send(.transition(Self.todos))
        let delivered = await Self.collect(deliveries, 3)
        guard case .refused(_, let redirected) = delivered.first,
            case .refused(_, let unknown) = delivered.dropFirst().first,
            case .applied(_, let status, _) = delivered.last
        else {
            Issue.record("refused, refused, applied: \(delivered)")
            return
        }
        #expect(redirected.status == 409 && redirected.code == "redirected", "\(redirected)")
        let now = try JSONValue(parsing: redirected.body)
        #expect(now["currentVersion"] != nil && now["state"] != nil, "the problem says where the session is now")
        #expect(unknown.status == 400 && unknown.code == "unknownRoute", "\(unknown)")
        #expect(status == 200)
    }

    /// The server is away for a while (stopped, then started again on its store at the same address): the intents
    /// sent meanwhile wait in the file, survive the queue itself, and are applied once each when it is back.
    @Test func intentsWaitInTheirFileWhileTheServerIsAway() async throws {
        let store = try TemporaryStore()
        let address = ServerAddress()
        func start() throws -> TestServer { try store.server(at: address) }
        var server = try start()
        let session = try server.createSession()
        try session.logIn()
        let url = try #require(URL(string: "http://127.0.0.1:\(address.port)"))
        let file = URL(fileURLWithPath: store.folder).appendingPathComponent("intents.json")
        server.stop()

        let away = try IntentQueue(server: url, session: session.id, file: file)
        let awayDeliveries = away.deliveries()
        for index in 0..<10 { try away.send(.transition(index.isMultiple(of: 2) ? Self.settings : Self.todos)) }
        try await Task.sleep(for: .milliseconds(600))  // tries, and finds no server
        away.stop()
        for await _ in awayDeliveries {}
        #expect(away.pending.count == 10, "nothing was answered")

        server = try start()
        defer { server.stop() }
        let back = try IntentQueue(server: url, session: session.id, file: file)
        #expect(back.pending == away.pending, "the file kept them, ids and all")
        let delivered = await Self.collect(back.deliveries(), 10)
        back.stop()
        #expect(delivered.count == 10 && back.pending.isEmpty)
        let history = try server.get("/api/sessions/\(session.id)/history?limit=1000").json["entries"]?.array ?? []
        #expect(history.count == 2 + 10, "each intent applied once")
        #expect(try IntentQueue(server: url, session: session.id, file: file).pending.isEmpty, "the file is empty")
    }
}
