import Switchyard
import Testing

/// What the guards of one test read: the admin flag.
final class Clearance {
    var admin = false
    var linkReady = false
    var guardCalls = 0
}

/// The root: tabs with a guarded stack and a login screen.
final class GuardedApp: RootCoordinatable, PersistentCoordinator {
    let navigation = RootNavigation(initial: \GuardedApp.tabs)
    let clearance: Clearance
    /// Data of the root coordinator (the one coordinator a restore keeps).
    var persistentState = 0

    @Root var tabs = makeTabs
    @Root var other = makeOther

    init(clearance: Clearance) { self.clearance = clearance }

    func makeTabs() -> GuardedTabs { GuardedTabs(clearance: clearance) }
    func makeOther() -> Label { Label(title: "Other") }

    func handle(_ event: FlowEvent) throws -> Bool {
        guard event.name == "grant" else { return false }
        clearance.admin = true
        clearance.linkReady = true
        return true
    }

    static let deepLinks = DeepLinkRouter<GuardedApp>()
        .route("test://admin") { app, _ in
            try app.hasRoot(\.tabs)?.focus(\.main).route(to: \.admin)
            return .opened
        }
        .route("test://open") { app, _ in
            guard app.clearance.linkReady else { return .pending }
            try app.hasRoot(\.tabs)?.focus(\.main).route(to: \.open)
            return .opened
        }
}

final class GuardedTabs: TabCoordinatable {
    let tabs = TabNavigation(\GuardedTabs.main, \GuardedTabs.login)
    let clearance: Clearance

    @TabRoute(item: mainItem) var main = makeMain
    @TabRoute(item: loginItem) var login = makeLogin

    init(clearance: Clearance) { self.clearance = clearance }

    func makeMain() -> GuardedStack { GuardedStack(clearance: clearance) }
    func makeLogin() -> Label { Label(title: "Log in") }
    func mainItem() -> TabItem { TabItem(title: "Main", icon: "house") }
    func loginItem() -> TabItem { TabItem(title: "Log in", icon: "person") }
}

final class GuardedStack: NavigationCoordinatable {
    let stack = NavigationStack(initial: \GuardedStack.home)
    let clearance: Clearance

    @Root var home = makeScreen
    @Route(.push) var open = makeScreen
    @Route(.push, guardedBy: adminOnly) var admin = makeScreen
    @Route(.push, guardedBy: closedForever) var closed = makeScreen
    @Route(.push, guardedBy: toLoopB) var loopA = makeScreen
    @Route(.push, guardedBy: toLoopA) var loopB = makeScreen

    init(clearance: Clearance) { self.clearance = clearance }

    func makeScreen() -> Label { Label(title: "Screen") }

    func handle(_ event: FlowEvent) throws -> Bool {
        guard event.name == "openAdmin" else { return false }
        try route(to: \.admin)
        return true
    }

    static let toLogin = [Step(.hasRoot(route: "tabs")), Step(.focus(route: "login"))]

    func adminOnly() -> RouteGuardDecision {
        clearance.guardCalls += 1
        return clearance.admin ? .allow : .redirect(Self.toLogin)
    }

    func closedForever() -> RouteGuardDecision { .refuse(code: "closed", message: "this screen is closed") }

    func toLoopB() -> RouteGuardDecision {
        .redirect([Step(.hasRoot(route: "tabs")), Step(.focus(route: "main")), Step(.push(route: "loopB"))])
    }

    func toLoopA() -> RouteGuardDecision {
        .redirect([Step(.hasRoot(route: "tabs")), Step(.focus(route: "main")), Step(.push(route: "loopA"))])
    }
}

@Suite("Route guards and redirects")
struct GuardTests {
    func makeApp() throws -> (NavigationEngine, GuardedApp, Clearance) {
        let clearance = Clearance()
        let app = GuardedApp(clearance: clearance)
        return (try NavigationEngine(root: app, deepLinks: GuardedApp.deepLinks), app, clearance)
    }

    func main(_ app: GuardedApp) throws -> GuardedStack {
        try #require(app.hasRoot(\.tabs)).focus(\.main)
    }

    @Test func anAllowingGuardLetsTheRouteIn() throws {
        let (engine, app, clearance) = try makeApp()
        clearance.admin = true
        try main(app).route(to: \.admin)
        #expect(engine.visiblePath == ["tabs", "main", "home", "admin"])
        #expect(clearance.guardCalls == 1)
    }

    @Test func aRefusingGuardIsA403ProblemAndChangesNothing() throws {
        let (engine, _, _) = try makeApp()
        let refusal = expectRefusal(engine, "closed") {
            try engine.perform([Step(.child), Step(.child), Step(.push(route: "open")), Step(.push(route: "closed"))])
        }
        #expect(refusal?.category == .forbidden)
        #expect(refusal?.message == "this screen is closed")
    }

    @Test func aRedirectReplacesTheWholeOperationAndKeepsTheRoute() throws {
        let (engine, _, _) = try makeApp()
        let before = engine.version
        let run = engine.collectingCommits {
            try engine.perform([Step(.child), Step(.child), Step(.push(route: "open")), Step(.push(route: "admin"))])
        }
        #expect(throws: NavigationError.self) { try run.get() }
        guard case .redirected(let error) = run.ending else {
            Issue.record("ended \(run.ending), not redirected")
            return
        }
        #expect(error.code == "redirected")
        #expect(
            error.message
                == "'admin' of GuardedStack is guarded: redirected to tabs/login; it opens once its guard allows it")
        #expect(error.redirect?.route == "admin")
        #expect(run.commits.map(\.version) == [before + 1])
        #expect(run.commits.map(\.redirected) == [error.redirect])
        // The chain's first push was rolled back with it: only the redirect happened.
        #expect(engine.visiblePath == ["tabs", "login"])
        #expect(
            engine.pendingRoute
                == PendingRoute(
                    ownerPath: ["tabs", "main"], ownerType: "GuardedStack", route: "admin", input: nil,
                    presentation: .push))
    }

    @Test func thePendingRouteOpensInAChangeOfItsOwnOnceTheGuardAllows() throws {
        let (engine, _, _) = try makeApp()
        _ = try? engine.perform([Step(.child), Step(.focus(route: "main")), Step(.push(route: "admin"))])
        // Another change while the guard still says no: the route waits, nothing more happens.
        try engine.perform([Step(.child), Step(.focus(route: "main")), Step(.push(route: "open"))])
        #expect(engine.pendingRoute != nil)
        #expect(engine.visiblePath == ["tabs", "main", "home", "open"])
        try engine.perform([Step(.child), Step(.focus(route: "login"))])
        let before = engine.version
        let commits = engine.collectingCommits { try engine.send(FlowEvent(name: "grant"), from: "n1") }.commits
        #expect(commits.map(\.cause) == [.direct, .pendingRoute])
        #expect(engine.version == before + 2)
        #expect(engine.pendingRoute == nil)
        // Shown: its tab is selected again, and it is pushed above what the stack held.
        #expect(engine.visiblePath == ["tabs", "main", "home", "open", "admin"])
    }

    @Test func aDeepLinkIsGuardedToo() throws {
        let (engine, _, _) = try makeApp()
        #expect(throws: NavigationError.self) { try engine.open("test://admin") }
        #expect(engine.visiblePath == ["tabs", "login"])
        #expect(engine.pendingRoute?.route == "admin")
        try engine.send(FlowEvent(name: "grant"), from: "n1")
        #expect(engine.visiblePath == ["tabs", "main", "home", "admin"])
    }

    @Test func anEventHandlerIsGuardedToo() throws {
        let (engine, app, clearance) = try makeApp()
        let stack = try main(app)
        let node = try #require(stack.nodeID)
        do {
            try engine.send(FlowEvent(name: "openAdmin"), from: node)
            Issue.record("the handler's route was let in")
        } catch let error as NavigationError {
            #expect(error.code == "redirected")
        }
        #expect(engine.visiblePath == ["tabs", "login"])
        #expect(engine.pendingRoute?.route == "admin")
        // Entered directly once allowed, it is no longer pending: it opens once, not twice.
        clearance.admin = true
        try engine.send(FlowEvent(name: "openAdmin"), from: node)
        #expect(engine.pendingRoute == nil)
        #expect(stack.stackRoutes == ["home", "admin"])
    }

    @Test func aPendingLinkAndAPendingRouteMadePossibleByOneChangeEachCommitWithTheirCause() throws {
        let (engine, _, _) = try makeApp()
        #expect(try engine.open("test://open") == .pending)
        _ = try? engine.perform([Step(.child), Step(.child), Step(.push(route: "admin"))])
        let commits = engine.collectingCommits { try engine.send(FlowEvent(name: "grant"), from: "n1") }.commits
        #expect(commits.map(\.cause) == [.direct, .pendingDeepLink, .pendingRoute])
        #expect(engine.visiblePath == ["tabs", "main", "home", "open", "admin"])
    }

    @Test func redirectLoopsAreRefusedAndChangeNothing() throws {
        let (engine, _, _) = try makeApp()
        let refusal = expectRefusal(engine, "redirectLoop") {
            try engine.perform([Step(.child), Step(.child), Step(.push(route: "loopA"))])
        }
        #expect(refusal?.choices == ["GuardedStack.loopA", "GuardedStack.loopB", "GuardedStack.loopA"])
        #expect(engine.pendingRoute == nil)
    }

    @Test func thePendingRouteIsSavedWithTheSession() throws {
        let (engine, _, _) = try makeApp()
        _ = try? engine.perform([Step(.child), Step(.child), Step(.push(route: "admin"))])
        let saved = try JSONValue(parsing: engine.restoreDocument())
        #expect(saved["pendingRoute"]?["route"] == "admin")
        let clearance = Clearance()
        let restored = try NavigationEngine(
            restoring: saved, root: GuardedApp(clearance: clearance), deepLinks: GuardedApp.deepLinks)
        #expect(restored.pendingRoute == engine.pendingRoute)
        #expect(restored.stateDocument() == engine.stateDocument())
        try restored.send(FlowEvent(name: "grant"), from: "n1")
        #expect(restored.visiblePath == ["tabs", "main", "home", "admin"])
    }

    @Test func aRestoreToAVersionShowingARouteItsGuardRefusesNowIsRefused() throws {
        let (engine, app, clearance) = try makeApp()
        clearance.admin = true
        try engine.transaction {
            app.persistentState = 1
            try main(app).route(to: \.admin)
        }
        let saved = try JSONValue(parsing: engine.restoreDocument())
        try engine.transaction {
            app.persistentState = 2
            try main(app).pop()
        }
        clearance.admin = false
        // Read back from a store, the tree comes back as it was acknowledged (guards are not asked)…
        let reloaded = try NavigationEngine(restoring: saved, root: GuardedApp(clearance: clearance))
        #expect(reloaded.visiblePath == ["tabs", "main", "home", "admin"])
        // …but going back to that version now is a change, and the guard refuses it.
        let refusal = expectRefusal(engine, "restoreGuarded") { try engine.restore(to: saved) }
        #expect(refusal?.category == .forbidden)
        #expect(app.persistentState == 2, "the root coordinator's data is put back too")
        clearance.admin = true
        try engine.restore(to: saved)
        #expect(engine.visiblePath == ["tabs", "main", "home", "admin"])
    }

    @Test func theCatalogShowsGuardedRoutesAndResultTypes() throws {
        let guarded = routes(
            of: "GuardedStack", in: NavigationApp(name: "g", root: { GuardedApp(clearance: Clearance()) }))
        #expect(guarded["admin"]?["guarded"] == true)
        #expect(guarded["open"]?["guarded"] == false)
        let opener = routes(of: "Opener", in: NavigationApp(name: "o", root: { Opener() }))
        #expect(opener["pick"]?["returns"] == "Int")
        #expect(opener["word"]?["returns"] == "String")
        #expect(opener["plain"]?["returns"] == nil)
    }

    /// The catalog's routes of one coordinator type, by name.
    func routes(of type: String, in app: NavigationApp) -> [String: JSONValue] {
        guard case .array(let types)? = app.catalog()["coordinators"],
            case .array(let routes)? = types.first(where: { $0["type"] == .string(type) })?["routes"]
        else { return [:] }
        return Dictionary(
            uniqueKeysWithValues: routes.compactMap { route in route["name"]?.stringValue.map { ($0, route) } })
    }
}
