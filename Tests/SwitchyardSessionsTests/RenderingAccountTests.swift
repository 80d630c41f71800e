import Logging
import Switchyard
import SwitchyardSessions
import Synchronization
import Testing

/// The kept renderings of all sessions stay within their budget whatever wrote them: a change, and a read that
/// rendered the document again (the budget is told once the session's lock is released, never by the engine).
@Suite("Rendering budget told after every turn")
struct RenderingAccountTests {
    @Test func sessionsThatAreOnlyReadKeepNoMoreRenderingsThanTheBudget() throws {
        let one = try Self.renderingsOfOneSession()
        var configuration = SessionConfiguration(apps: [Gallery.app])
        configuration.maxRenderingBytes = 3 * one + one / 2  // room for three sessions' renderings
        let sessions = LiveSessions(configuration: configuration, logger: Logger(label: "test"))
        let pipeline = ChangePipeline(sessions: sessions, rendering: Plain())
        let made = try (0..<12).map { _ in
            let session = try sessions.create(appName: nil)
            try sessions.publish(session, creation: nil)
            // A change: its answer's rendering is then dropped (nobody follows the session), so reads render.
            let request = ChangeRequest(.success(.transition(coordinator: nil, steps: [Step(.push(route: "picture"))])))
            #expect(pipeline.apply(request, to: session).reply.status == 200)
            return session
        }
        for session in made { _ = try session.read { $0.document() } }
        let before = Gallery.renders.withLock { $0 }
        for session in made { _ = try session.read { $0.document() } }
        let second = Gallery.renders.withLock { $0 } - before
        // Each read of a session whose renderings the budget dropped renders its screens again; were reads not
        // counted, every session would have kept its renderings from the first pass and rendered nothing now.
        #expect(second >= 2 * 9, "\(second) screens rendered by the second pass")
    }

    /// What one session's renderings hold.
    private static func renderingsOfOneSession() throws -> Int {
        let engine = try Gallery.app.makeEngine()
        engine.screenRenderings = ScreenRenderings()
        try engine.perform([Step(.push(route: "picture"))])
        _ = engine.stateDocument()
        return try #require(engine.screenRenderings?.bytes)
    }
}

/// Two screens that keep their rendering (a fixed revision) and count how often they render.
final class Gallery: NavigationCoordinatable {
    static let app = NavigationApp(name: "gallery", root: { Gallery() })
    static let renders = Mutex(0)
    let stack = NavigationStack(initial: \Gallery.home)
    @Root var home = makeHome
    @Route(.push) var picture = makePicture

    func makeHome() -> Counted { Counted(text: "Gallery") }
    func makePicture() -> Counted { Counted(text: "A picture") }
}

/// A screen that says it never changes, and counts its renders.
struct Counted: Screen {
    let text: String
    var contentRevision: Int? { 0 }
    func render() -> ScreenContent {
        Gallery.renders.withLock { $0 += 1 }
        return ScreenContent(title: text, content: [.text(String(repeating: "words ", count: 40))])
    }
}

/// Answers every outcome with its status only.
private struct Plain: ChangeRendering {
    func reply(to outcome: ChangeOutcome, of request: ChangeRequest, session: String) -> SessionReply {
        switch outcome {
        case .committed, .unchanged: SessionReply(status: 200, body: [])
        default: SessionReply(status: 409, body: [])
        }
    }
}
