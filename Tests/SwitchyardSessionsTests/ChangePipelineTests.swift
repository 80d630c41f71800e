import Switchyard
import SwitchyardSessions
import Testing

/// The change pipeline driven without HTTP: a request in, what happened out, the renderer given once.
@Suite("Change pipeline")
struct ChangePipelineTests {
    @Test func aChangeCommitsAVersionAndIsRenderedOnce() throws {
        let node = try Node()
        let session = try node.createSession()
        let answer = node.pipeline.apply(Node.push("detail", "7"), to: session)
        guard case .committed(let version) = answer.ending else {
            Issue.record("ended as \(answer.ending)")
            return
        }
        #expect(version == 1)
        #expect(answer.reply.status == 200)
        #expect(String(decoding: answer.reply.body, as: UTF8.self) == "committed 1")
        #expect(session.version == 1)
    }

    @Test func aStalePreconditionAppliesNothing() throws {
        let node = try Node()
        let session = try node.createSession()
        var request = Node.push("detail", "7")
        request.expectedVersions = [3]
        let answer = node.pipeline.apply(request, to: session)
        guard case .refused(.staleVersion(let current, let wanted, _)) = answer.ending else {
            Issue.record("ended as \(answer.ending)")
            return
        }
        #expect(current == 0 && wanted == [3])
        #expect(session.version == 0)
    }

    @Test func aRetriedKeyReplaysItsAnswerAndAnotherRequestUnderItIsRefused() throws {
        let node = try Node()
        let session = try node.createSession()
        var request = Node.push("detail", "7")
        request.key = "k1"
        request.fingerprint = 42
        let first = node.pipeline.apply(request, to: session)
        let retry = node.pipeline.apply(request, to: session)
        guard case .replayed = retry.ending else {
            Issue.record("the retry ended as \(retry.ending)")
            return
        }
        #expect(retry.reply.body == first.reply.body)
        #expect(session.version == 1)
        request.fingerprint = 43
        guard case .refused(.keyReused("k1")) = node.pipeline.apply(request, to: session).ending else {
            Issue.record("another request under the key was not refused")
            return
        }
        #expect(session.version == 1)
    }

    @Test func aCopyThatLeftMemoryIsReadBackAndTheChangeRunsOnIt() throws {
        let node = try Node()
        let session = try node.createSession()
        node.sessions.evict(session)  // as a reload or an admin change would: the copy ends
        let answer = node.pipeline.apply(Node.push("detail", "7"), to: session)
        guard case .committed(version: 1) = answer.ending else {
            Issue.record("ended as \(answer.ending)")
            return
        }
        let live = try node.sessions.session(session.id)
        #expect(live !== session)
        #expect(live.version == 1)
    }

    @Test func aWriteAnotherNodeBeatIsRunAgainOnTheStoredVersion() throws {
        let archive = MemorySessionArchive(limits: .inMemory)
        let first = try Node(archive: archive)
        let second = try Node(archive: archive)
        let mine = try first.createSession()
        let theirs = try second.sessions.session(mine.id)  // read back from the shared archive: a second copy
        #expect(first.pipeline.apply(Node.push("detail", "1"), to: mine).reply.status == 200)
        let answer = second.pipeline.apply(Node.push("detail", "2"), to: theirs)
        guard case .committed(version: 2) = answer.ending else {
            Issue.record("ended as \(answer.ending)")
            return
        }
        #expect(second.sessions.counters.current.conflicts == 1)
        #expect(try second.sessions.session(mine.id).version == 2)
    }
}

/// One node's session layer over `archive`, with a renderer that says what it rendered.
private struct Node {
    let sessions: LiveSessions
    let pipeline: ChangePipeline

    init(archive: MemorySessionArchive? = nil) throws {
        var configuration = SessionConfiguration(apps: [Shop.app])
        configuration.archive = archive
        sessions = LiveSessions(configuration: configuration, logger: .init(label: "test"))
        pipeline = ChangePipeline(sessions: sessions, rendering: Outcomes())
    }

    func createSession() throws -> Session {
        let session = try sessions.create(appName: nil)
        try sessions.publish(session, creation: nil)
        return session
    }

    static func push(_ route: String, _ input: String) -> ChangeRequest {
        ChangeRequest(
            .success(.transition(coordinator: nil, steps: [Step(.push(route: route, input: .string(input)))])))
    }
}

/// Renders an outcome as its kind and version.
private struct Outcomes: ChangeRendering {
    func reply(to outcome: ChangeOutcome, of request: ChangeRequest, session: String) -> SessionReply {
        switch outcome {
        case .committed(_, let snapshot): SessionReply(status: 200, body: Array("committed \(snapshot.version)".utf8))
        case .unchanged(_, let snapshot): SessionReply(status: 200, body: Array("unchanged \(snapshot.version)".utf8))
        case .redirected(_, let snapshot): SessionReply(status: 409, body: Array("redirected \(snapshot.version)".utf8))
        case .refused(let refusal): SessionReply(status: 409, body: Array("refused \(refusal)".utf8))
        case .replayed(let reply): reply
        case .rebuilt(let outcome): reply(to: outcome, of: request, session: session)
        }
    }
}

/// A shop: a home screen and an item screen pushed on it.
final class Shop: NavigationCoordinatable {
    static let app = NavigationApp(name: "shop", root: { Shop() })
    let stack = NavigationStack(initial: \Shop.home)
    @Root var home = makeHome
    @Route(.push) var detail = makeDetail

    func makeHome() -> Title { Title(text: "Shop") }
    func makeDetail(id: String) -> Title { Title(text: "Item \(id)") }
}

/// A screen with a title.
struct Title: Screen {
    let text: String
    func render() -> ScreenContent { ScreenContent(title: text, content: [.text(text)]) }
}
