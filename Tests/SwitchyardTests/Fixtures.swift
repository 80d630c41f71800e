import Switchyard
import Testing

/// Records lifecycle hooks in order, shared by the fixture coordinators of one test.
final class HookLog {
    var lines: [String] = []
}

struct Label: Screen {
    let title: String
    func render() -> ScreenContent { ScreenContent(title: title, content: [.text(title)]) }
}

struct Profile: Codable, Sendable, Hashable {
    var name: String
    var age: Int
}

/// A navigation coordinator exercising every route style.
final class StackCoordinator: NavigationCoordinatable {
    let stack = NavigationStack(initial: \StackCoordinator.home)
    let log: HookLog
    let name: String
    var veto: String?
    var handled: Set<String> = []

    @Root var home = makeHome
    @Root var other = makeOther
    @Route(.push) var a = makeA
    @Route(.push) var b = makeB
    @Route(.push) var detail = makeDetail
    @Route(.push) var profile = makeProfile
    @Route(.modal) var sheet = makeSheet
    @Route(.modal(dismissible: false)) var terms = makeTerms
    @Route(.fullScreen) var cover = makeCover
    @Route(.push) var nested = makeNested
    @Route(.modal) var flow = makeFlow
    @Route(.push) var tabsPush = makeTabs

    init(log: HookLog = HookLog(), name: String = "stack") {
        self.log = log
        self.name = name
    }

    func makeHome() -> Label { Label(title: "Home") }
    func makeOther() -> Label { Label(title: "Other") }
    func makeA() -> Label { Label(title: "A") }
    func makeB() -> Label { Label(title: "B") }
    func makeDetail(id: String) -> Label { Label(title: "Detail \(id)") }
    func makeProfile(profile: Profile) -> Label { Label(title: "\(profile.name) \(profile.age)") }
    func makeSheet() -> Label { Label(title: "Sheet") }
    func makeTerms() -> Label { Label(title: "Terms") }
    func makeCover() -> Label { Label(title: "Cover") }
    func makeNested() -> StackCoordinator { StackCoordinator(log: log, name: "nested") }
    func makeFlow() -> StackCoordinator { StackCoordinator(log: log, name: "flow") }
    func makeTabs() -> TabsCoordinator { TabsCoordinator(log: log) }

    func onStart() { log.lines.append("start \(name)") }
    func onFinish() { log.lines.append("finish \(name)") }
    func childDidFinish(_ child: any Coordinatable) { log.lines.append("\(name) saw child finish") }

    func handle(_ event: FlowEvent) throws -> Bool {
        if event.name == "fail" { throw NavigationError.noAlert }
        if event.name == "goA" {
            try route(to: \.a)
            return true
        }
        return handled.contains(event.name)
    }

    func shouldLeave(route: String, item: String, gesture: Gesture) -> LeaveDecision {
        if let veto { return .refuse(veto) }
        return .allow
    }
}

/// A tab coordinator with coordinator tabs and a screen tab.
final class TabsCoordinator: TabCoordinatable {
    let tabs = TabNavigation(
        \TabsCoordinator.one, \TabsCoordinator.two, \TabsCoordinator.three, addedLater: [\TabsCoordinator.extra])
    let log: HookLog
    var reselected: [String] = []

    @TabRoute(item: oneItem) var one = makeOne
    @TabRoute(item: twoItem) var two = makeTwo
    @TabRoute(item: threeItem) var three = makeThree
    @TabRoute(item: extraItem) var extra = makeExtra
    @Route(.modal) var sheet = makeSheet

    init(log: HookLog = HookLog()) { self.log = log }

    func makeOne() -> StackCoordinator { StackCoordinator(log: log, name: "one") }
    func makeTwo() -> StackCoordinator { StackCoordinator(log: log, name: "two") }
    func makeThree() -> Label { Label(title: "Three") }
    func makeExtra(title: String) -> Label { Label(title: title) }
    func makeSheet() -> Label { Label(title: "Tab sheet") }
    func oneItem() -> TabItem { TabItem(title: "One", icon: "circle.fill", badge: "1") }
    func twoItem() -> TabItem { TabItem(title: "Two", icon: "square.fill") }
    func threeItem() -> TabItem { TabItem(title: "Three", icon: "star") }
    func extraItem() -> TabItem { TabItem(title: "Extra", icon: "plus") }

    func didReselectTab(_ route: String) throws {
        reselected.append(route)
        if route == "one" { try focus(\.one).popToRoot() }
    }

    func customize(_ decoration: inout Decoration) {
        decoration.tint = "#ff0000"
        decoration.badges["two"] = "9"
    }
}

/// The root: switches between a screen, a navigation flow and tabs.
final class AppRoot: RootCoordinatable {
    let navigation = RootNavigation(initial: \AppRoot.launch)
    let log: HookLog

    @Root var launch = makeLaunch
    @Root var main = makeMain
    @Root var tabs = makeTabs
    @Root var user = makeUser
    @Route(.modal) var sheet = makeSheet
    @Route(.fullScreen) var flow = makeFlow

    init(log: HookLog = HookLog()) { self.log = log }

    func makeLaunch() -> Label { Label(title: "Launch") }
    func makeMain() -> StackCoordinator { StackCoordinator(log: log, name: "main") }
    func makeTabs() -> TabsCoordinator { TabsCoordinator(log: log) }
    func makeUser(name: String) -> StackCoordinator { StackCoordinator(log: log, name: name) }
    func makeSheet() -> Label { Label(title: "Root sheet") }
    func makeFlow() -> StackCoordinator { StackCoordinator(log: log, name: "rootflow") }

    func handle(_ event: FlowEvent) throws -> Bool {
        if event.name == "login" {
            try root(\.user, event.fields["username"] ?? "")
            return true
        }
        return false
    }

    static let deepLinks = DeepLinkRouter<AppRoot>()
        .route("test://app/detail/:id") { app, link in
            guard let main = app.hasRoot(\.main) else { return .pending }
            try main.popToRoot().route(to: \.detail, try link.string("id"))
            return .opened
        }
        .route("test://app/page/:n(int)") { app, link in
            let main = try app.root(\.main)
            try main.route(to: \.detail, String(try link.int("n")))
            return .opened
        }
        .route("test://app/partial") { app, _ in
            try app.root(\.main)
            return .pending
        }
        .route("http|https://*/tab/:name") { app, link in
            let name = try link.string("name")
            guard name == "one" || name == "two" else {
                throw NavigationError.deepLinkUnresolved(link.url, reason: "no tab \(name)")
            }
            let tabs = try app.root(\.tabs)
            try tabs.engine!.perform([Step(.focus(route: name))], from: tabs.nodeID)
            return .opened
        }
}

/// Makes an engine over a fresh `AppRoot`.
func makeEngine(log: HookLog = HookLog()) throws -> (NavigationEngine, AppRoot) {
    let root = AppRoot(log: log)
    let engine = try NavigationEngine(root: root, deepLinks: AppRoot.deepLinks)
    return (engine, root)
}

extension NavigationEngine {
    /// The document without volatile parts, for "nothing changed" assertions.
    var snapshotText: String { String(decoding: stateDocument(), as: UTF8.self) }
}

/// Asserts that `body` throws a NavigationError with `code` and changes neither the tree nor the version.
@discardableResult
func expectRefusal(_ engine: NavigationEngine, _ code: String, _ body: () throws -> Void) -> NavigationError? {
    let before = engine.snapshotText
    let version = engine.version
    do {
        try body()
        Issue.record("expected \(code), but the operation succeeded")
        return nil
    } catch let error as NavigationError {
        #expect(error.code == code)
        #expect(engine.version == version)
        #expect(engine.snapshotText == before)
        return error
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}
