import Foundation
import SwitchyardClient
import SwitchyardJSON
import Testing

/// `SwitchyardClient`'s intent queue: intents sent in order, each applied once with its stable `Idempotency-Key`,
/// kept in a file while the server is away, refused for good with the typed problem.
@Suite("Swift client: intents")
struct ClientIntentTests {

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
        try queue.send(.event("completeOnboarding"))
        try queue.send(.event("login", fields: ["username": "ada"]))
        for index in 0..<20 {
            try queue.send(.transition([.selectTab(index.isMultiple(of: 2) ? "settings" : "todos")]))
        }
        try queue.send(.restore(to: 3))
        let delivered = await Self.collect(deliveries, 23)
        #expect(delivered.count == 23)
        #expect(delivered.allSatisfy { if case .applied = $0 { true } else { false } })
        #expect(queue.pending.isEmpty)
        let history = try server.get("/api/sessions/\(session.id)/history?limit=1000").json["entries"]?.array ?? []
        #expect(history.count == 23, "one version per intent")
        #expect(history.last?["source"] == "restore")
    }

    /// The server applied an intent but its answer never reached the app (sent here by hand, its answer dropped):
    /// the queue's try of the same intent carries the same id as `Idempotency-Key` and is answered from the server's
    /// memory of it, not applied again.
    @Test func anIntentWhoseAnswerWasLostIsNotAppliedAgain() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let session = try server.createSession()
        try session.logIn()
        let intent = Intent.transition([.push("todo", input: "buy-milk")], coordinator: "TodosCoordinator")
        let first = try session.transition(
            String(decoding: intent.body, as: UTF8.self), headers: [("Idempotency-Key", intent.id)])
        try #require(first.status == 200 && first.json["version"]?.int == 3)
        let queue = try IntentQueue(
            server: try #require(URL(string: "http://127.0.0.1:\(server.port)")), session: session.id)
        defer { queue.stop() }
        let deliveries = queue.deliveries()
        try queue.send(intent)
        guard case .applied(_, let status, let body) = await Self.collect(deliveries, 1).first else {
            Issue.record("the retry was not answered")
            return
        }
        let replayed = try JSONValue(parsing: Array(body))
        #expect(status == 200 && replayed["version"]?.int == 3, "the first answer")
        #expect(try session.state().json["version"]?.int == 3, "applied once")
    }

    @Test func aRefusedIntentArrivesAsItsProblemAndTheNextGoesOn() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let session = try server.createSession()
        try session.logIn()
        try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#))
        let queue = try IntentQueue(
            server: try #require(URL(string: "http://127.0.0.1:\(server.port)")), session: session.id)
        defer { queue.stop() }
        let deliveries = queue.deliveries()
        try queue.send(.transition([.push("admin")], coordinator: "SettingsCoordinator"))
        try queue.send(.transition([.selectTab("nowhere")]))
        try queue.send(.transition([.selectTab("todos")], expectedVersion: 3))
        try queue.send(.transition([.selectTab("todos")]))
        let delivered = await Self.collect(deliveries, 4)
        guard delivered.count == 4, case .refused(_, let redirected) = delivered[0],
            case .refused(_, let unknown) = delivered[1], case .refused(_, let stale) = delivered[2],
            case .applied(_, let status, _) = delivered[3]
        else {
            Issue.record("refused, refused, refused, applied: \(delivered)")
            return
        }
        // The redirect was applied as version 4: the problem carries it, typed, for the app to show.
        guard case .redirected(let redirectedTo, let shown) = redirected.kind else {
            Issue.record("a typed redirect: \(redirected)")
            return
        }
        #expect(redirected.status == 409 && redirectedTo == 4)
        #expect(shown?.state?.visible.path == ["authenticated", "profile"])
        #expect(shown?.state?.pendingRoute?.route == "admin" && shown?.state?.pendingRoute?.presentation == .push)
        #expect(unknown.status == 400 && unknown.code == "unknownRoute" && unknown.kind == .refused, "\(unknown)")
        // expectedVersion 3 is stale: 412 with the version the session is at and its state.
        guard case .staleVersion(let current, let state) = stale.kind else {
            Issue.record("a typed stale version: \(stale)")
            return
        }
        #expect(stale.status == 412 && current == 4 && state?.version == 4)
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
        for index in 0..<10 { try away.send(.transition([.selectTab(index.isMultiple(of: 2) ? "settings" : "todos")])) }
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
