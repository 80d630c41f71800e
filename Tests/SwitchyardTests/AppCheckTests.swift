import Foundation
import Switchyard
import Testing

/// A tab coordinator whose TabNavigation forgot its second tab (the one-tab example copied, then a tab added).
final class ForgottenTab: TabCoordinatable {
    let tabs = TabNavigation(\ForgottenTab.inbox)
    @TabRoute(item: inboxItem) var inbox = makeInbox
    @TabRoute(item: sentItem) var sent = makeSent
    func makeInbox() -> Label { Label(title: "Inbox") }
    func makeSent() -> Label { Label(title: "Sent") }
    func inboxItem() -> TabItem { TabItem(title: "Inbox", icon: "tray") }
    func sentItem() -> TabItem { TabItem(title: "Sent", icon: "paperplane") }
}

/// Two tabs, both listed, that show screens.
final class SoundTabs: TabCoordinatable {
    let tabs = TabNavigation(\SoundTabs.inbox, \SoundTabs.sent)
    @TabRoute(item: inboxItem) var inbox = makeInbox
    @TabRoute(item: sentItem) var sent = makeSent
    func makeInbox() -> Label { Label(title: "Inbox") }
    func makeSent() -> Label { Label(title: "Sent") }
    func inboxItem() -> TabItem { TabItem(title: "Inbox", icon: "tray") }
    func sentItem() -> TabItem { TabItem(title: "Sent", icon: "paperplane") }
}

/// A root coordinator that declares a pushed, guarded route (it has no stack) and pushes nothing else.
final class StacklessRoot: RootCoordinatable {
    let navigation = RootNavigation(initial: \StacklessRoot.home)
    @Root var home = makeHome
    @Route(.push, guardedBy: allowed) var details = makeDetails
    @Route(.modal) var tabsSheet = makeTabs
    func makeHome() -> Label { Label(title: "Home") }
    func makeDetails() -> Label { Label(title: "Details") }
    func makeTabs() -> SoundTabs { SoundTabs() }
    func allowed() -> RouteGuardDecision { .allow }
}

/// A navigation coordinator that pushes a tab coordinator, names an icon the page lacks, and declares an event twice.
final class Misdeclared: NavigationCoordinatable {
    static let events = [FlowEventDeclaration("save"), FlowEventDeclaration("save", fields: ["title"])]
    let stack = NavigationStack(initial: \Misdeclared.home)
    @Root var home = makeHome
    @Route(.push) var tabs = makeTabs
    func makeHome() -> ScreenContent {
        ScreenContent(
            title: "Home",
            content: [.image(systemName: "unicorn"), .list([ListRow(id: "a", title: "A", icon: "star")])])
    }
    func makeTabs() -> SoundTabs { SoundTabs() }
}

@Suite("Checking an app")
struct AppCheckTests {
    private func errors(_ findings: [AppDiagnostic]) -> [String] {
        findings.filter { $0.severity == .error }.map(\.description)
    }

    @Test func aTabLeftOutOfTabNavigationIsAnErrorNamingIt() {
        let findings = NavigationApp(name: "mail", root: { ForgottenTab() }).check()
        #expect(findings.count == 1)
        #expect(findings.first?.severity == .error)
        #expect(findings.first?.route == "sent")
        #expect(findings.first?.description.contains("ForgottenTab, route 'sent'") == true)
        #expect(findings.first?.fix.contains("addedLater") == true)
    }

    @Test func soundTabsAndATabAddedLaterAreFine() {
        #expect(NavigationApp(name: "tabs", root: { SoundTabs() }).check().isEmpty)
        // Its `extra` tab is listed in addedLater:; its StackCoordinator pushes a tab coordinator on purpose.
        #expect(NavigationApp(name: "tabs", root: { TabsCoordinator() }).check().map(\.route) == ["tabsPush"])
    }

    @Test func aPushedRouteOnACoordinatorWithoutAStackIsAnErrorAndItsGuardNeverRuns() {
        let findings = NavigationApp(name: "app", root: { StacklessRoot() }).check()
        #expect(findings.count == 1)
        let finding = findings.first
        #expect(finding?.severity == .error)
        #expect(finding?.route == "details")
        #expect(finding?.problem.contains("a root coordinator has no stack (so its guard never runs)") == true)
        #expect(finding?.fix.contains("@Route(.modal)") == true)
    }

    @Test func pushingATabCoordinatorIsAnErrorAndIconsThePageLacksAreWarnings() {
        let findings = NavigationApp(name: "app", root: { Misdeclared() }).check()
        let errors = findings.filter { $0.severity == .error }
        #expect(errors.map(\.route) == ["tabs", nil])
        #expect(errors.last?.problem == "it declares the event 'save' more than once")
        #expect(errors.first?.problem == "it pushes SoundTabs, which is not a navigation coordinator")
        let warnings = findings.filter { $0.severity == .warning }
        #expect(warnings.count == 1)
        #expect(warnings.first?.route == "home")
        #expect(warnings.first?.problem.contains("the icon 'unicorn'") == true)
    }

    @Test func theIconSetIsThePagesIconSet() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Public/js/icons.js")
        let text = try String(contentsOf: script, encoding: .utf8)
        let names = text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  '"), let end = line.dropFirst(3).firstIndex(of: "'") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
        }
        #expect(names.count > 40)
        #expect(Set(names) == PageIcons.names)
    }

    @Test func twoAppsWithOneNameAreAnError() {
        let app = NavigationApp(name: "tabs", root: { SoundTabs() })
        let findings = NavigationApp.check([app, app])
        #expect(findings.map(\.app) == ["tabs"])
        #expect(
            findings.first?.diagnostic.description
                == "error: 2 apps are named 'tabs' at version 1 (fix: give each app its own name, or each version of "
                + "one app its own version number)")
        #expect(NavigationApp.check([app]).isEmpty)
    }

    @Test func deepLinkPatternsThatCannotWorkOrNeverRunAreErrors() {
        let ignore: DeepLinkRouter<SoundTabs>.Handler = { _, _ in .opened }
        let links = DeepLinkRouter<SoundTabs>()
            .route("app://x/todo/:id", examples: ["app://x/todo/7"], ignore)
            .route("app://x/todo/:id(int)", ignore)  // never runs: the string parameter takes every link
            .route("app://x/todo/new", ignore)  // never runs either
            .route("app://x/user/:id(integer)", ignore)  // unknown type
            .route("my_app://x/:a/:a", ignore)  // a scheme no URL has, and a parameter twice
            // Not key=value, and an example it does not match:
            .route("app://x/search?q", examples: ["app://x/nope"], ignore)
            .route("app://x/page/:n(int)", examples: ["app://x/page/2"], ignore)
        let findings = NavigationApp(name: "tabs", root: { SoundTabs() }, deepLinks: links).check()
        let errors = errors(findings)
        #expect(errors.count == 6, "\(errors)")
        #expect(
            errors.contains(
                "error: SoundTabs: deep link 'app://x/todo/:id(int)' never runs: the earlier 'app://x/todo/:id' "
                    + "matches every link it does (fix: declare 'app://x/todo/:id(int)' before 'app://x/todo/:id')"))
        #expect(errors.contains { $0.contains("deep link 'app://x/todo/new' never runs") })
        #expect(errors.contains { $0.contains("':id(integer)' names an unknown type") })
        #expect(errors.contains { $0.contains("'my_app' is not a URL scheme") })
        #expect(errors.contains { $0.contains("the parameter ':a' appears more than once") })
        #expect(errors.contains { $0.contains("the query member 'q' is not key=value") })
        let warnings = findings.filter { $0.severity == .warning }.map(\.problem)
        #expect(
            warnings == [
                "deep link 'app://x/search?q': its example 'app://x/nope' does not match it, so it is not offered"
            ])
    }

    @Test func aSoundRouterHasNoFindings() {
        let ignore: DeepLinkRouter<SoundTabs>.Handler = { _, _ in .opened }
        let links = DeepLinkRouter<SoundTabs>()
            .route("app://x/todo/new", ignore)
            .route("app://x/todo/:id(int)", ignore)
            .route("app|web://*/todo/:id", examples: ["web://example.com/todo/abc"], ignore)
            .route("app://x/search?q=:query&page=:page(int)", ignore)  // before the less demanding one
            .route("app://x/search?q=:query", ignore)
        #expect(NavigationApp(name: "tabs", root: { SoundTabs() }, deepLinks: links).check().isEmpty)
    }
}

/// Two stacks that start each other: a session of them cannot start (refused, never a stack overflow).
final class LoopingStack: NavigationCoordinatable {
    let stack = NavigationStack(initial: \LoopingStack.start)
    @Root var start = makeStart
    func makeStart() -> OtherLoopingStack { OtherLoopingStack() }
}

final class OtherLoopingStack: NavigationCoordinatable {
    let stack = NavigationStack(initial: \OtherLoopingStack.start)
    @Root var start = makeStart
    func makeStart() -> LoopingStack { LoopingStack() }
}

@Suite("Coordinators that start each other")
struct StartLoopTests {
    @Test func makingTheEngineIsRefusedWithTreeTooDeep() {
        #expect {
            _ = try NavigationApp(name: "loop", root: { LoopingStack() }).makeEngine()
        } throws: { error in
            (error as? NavigationError)?.code == "treeTooDeep"
        }
    }
}
