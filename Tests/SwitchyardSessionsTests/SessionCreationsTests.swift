import Logging
import Switchyard
import SwitchyardSessions
import Testing

/// Session creation driven without HTTP: once per idempotency key, across nodes sharing a store.
@Suite("Session creations")
struct SessionCreationsTests {
    @Test func aKeyedRetryGetsTheFirstAnswerAndAnotherRequestUnderTheKeyIsRefused() throws {
        let creations = Self.creations(over: MemorySessionArchive(limits: .inMemory))
        let key = CreationKey(given: "k", scoped: "client k", fingerprint: 1)
        let first = try creations.create(CreateRequest(key: key))
        guard case .created(let id, let reply) = first else {
            Issue.record("created nothing: \(first)")
            return
        }
        #expect(String(decoding: reply.body, as: UTF8.self) == "created \(id)")
        let replay = try #require(try creations.replay(key))
        #expect(replay.body == reply.body && replay.status == 299)
        var other = key
        other.fingerprint = 2
        #expect(throws: CreateFailure.self) { try creations.replay(other) }
    }

    @Test func aKeyAnotherNodeTookFirstReplaysThatNodesAnswer() throws {
        let archive = MemorySessionArchive(limits: .inMemory)
        let key = CreationKey(given: "k", scoped: "client k", fingerprint: 1)
        guard case .created(let id, _) = try Self.creations(over: archive).create(CreateRequest(key: key)) else {
            Issue.record("the first node created nothing")
            return
        }
        // The second node has not seen the key: its creation finds it taken in the store, and replays.
        guard
            case .replayed(let replayed, let reply) = try Self.creations(over: archive).create(CreateRequest(key: key))
        else {
            Issue.record("the second node created another session")
            return
        }
        #expect(replayed == id && reply.status == 299)
    }

    private static func creations(over archive: MemorySessionArchive) -> SessionCreations {
        var configuration = SessionConfiguration(apps: [Shop.app])
        configuration.archive = archive
        let sessions = LiveSessions(configuration: configuration, logger: Logger(label: "test"))
        return SessionCreations(sessions: sessions, rendering: Created())
    }
}

/// Renders a creation as its session id, a replay with status 299.
private struct Created: CreationRendering {
    func created(_ snapshot: SessionSnapshot) -> SessionReply {
        SessionReply(status: 201, body: Array("created \(snapshot.session)".utf8))
    }

    func replayed(_ reply: SessionReply) -> SessionReply {
        SessionReply(status: 299, headers: reply.headers, body: reply.body)
    }
}
