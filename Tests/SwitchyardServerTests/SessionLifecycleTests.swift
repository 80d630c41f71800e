import Switchyard
import Testing

@testable import MicroHTTP
@testable import SwitchyardServer
@testable import SwitchyardSessions

/// A child coordinator whose screen says, when rendered, whether its `onStart` hook ran.
final class HookedChild: NavigationCoordinatable {
    let stack = NavigationStack(initial: \HookedChild.main)
    @Root var main = makeMain
    fileprivate(set) var started = false

    func makeMain() -> StartedScreen { StartedScreen(child: self) }
    func onStart() { started = true }
}

/// Shows the child's state as it is at render time.
struct StartedScreen: Screen {
    let child: HookedChild
    func render() -> ScreenContent { ScreenContent(title: child.started ? "Started" : "Not started") }
}

/// A root that pushes a ``HookedChild``.
final class HookedRoot: NavigationCoordinatable {
    let stack = NavigationStack(initial: \HookedRoot.home)
    @Root var home = makeHome
    @Route(.push) var child = makeChild

    func makeHome() -> ScreenContent { ScreenContent(title: "Home") }
    func makeChild() -> HookedChild { HookedChild() }
}

/// What a session shows and keeps across the edges of its life: hooks after a commit, streams after its end.
@Suite("Session lifecycle")
struct SessionLifecycleTests {
    @Test func theAnswerShowsWhatLifecycleHooksChanged() throws {
        try withServer({ $0.apps = [NavigationApp(name: "hooks", root: { HookedRoot() })] }) { server in
            let session = try server.createSession()
            let pushed = try session.must(
                session.transition(#"{"coordinator":"HookedRoot","steps":[{"action":"push","route":"child"}]}"#))
            #expect(pushed.json["visible"]?["screen"]?["title"] == "Started", "rendered after onStart ran")
            #expect(try session.state().json["visible"]?["screen"]?["title"] == "Started")
        }
    }

    @Test func aStreamThatSubscribesAfterTheSessionEndedIsClosed() throws {
        var configuration = ServerConfiguration(apps: [NavigationApp(name: "hooks", root: { HookedRoot() })])
        configuration.sessionCreationsPerMinute = 0
        let session = Session(
            id: "s", app: "hooks", engine: try configuration.apps[0].makeEngine(), configuration: configuration.sessions
        )
        session.closeStreams()  // deleted or expired between the look-up and the stream's start
        let stream = EventStream()
        session.subscribe(EventStreamSubscriber(stream: stream, updates: .patch))
        #expect(stream.isClosed)
        #expect(session.currentActivity.subscribers == 0)
    }
}
