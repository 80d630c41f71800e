import Foundation
import Switchyard
import SwitchyardDefinitions
import SwitchyardExplorer
import Testing
import TodoDemo

/// A Swift app with a way into and out of everything, and one event whose handler throws an error of its own.
final class Shelf: NavigationCoordinatable {
    struct Broken: Error {}
    static let events = [FlowEventDeclaration("explode")]
    let stack = NavigationStack(initial: \Shelf.list)
    @Root var list = makeList
    @Route(.push) var book = makeBook
    @Route(.modal(dismissible: false)) var terms = makeTerms

    func makeList() -> ScreenContent {
        ScreenContent(
            title: "Books",
            content: [
                .list([ListRow(id: "dune", title: "Dune", action: .push(\Shelf.book, "dune"))]),
                .button("Terms", action: .route(\Shelf.terms)),
                .button("Explode", action: .event("explode")),
            ])
    }
    func makeBook(id: String) -> ScreenContent { ScreenContent(title: "Book \(id)") }
    func makeTerms() -> ScreenContent {
        ScreenContent(title: "Terms", content: [.button("Agree", action: .step(.dismiss))])
    }
    func handle(_ event: FlowEvent) throws -> Bool {
        if event.name == "explode" { throw Broken() }
        return false
    }
}

@Suite("Exploring an app")
struct AppExplorerTests {
    static let trap = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../explore/trap.yaml").standardized

    private func definition(_ url: URL) throws -> NavigationApp {
        try NavigationApp(definition: String(contentsOf: url, encoding: .utf8), format: .yaml)
    }

    @Test func aTrapAndARouteNoGuardLetsInAreErrorsWithTheirPointers() throws {
        let report = ExplorationReport(try AppExplorer(app: definition(Self.trap)).explore())
        #expect(report.hasErrors)
        #expect(report.traps.map(\.place.pointer) == ["/coordinators/Main/routes/terms"])
        #expect(report.traps.first?.way == ["tap 'Terms'"])
        #expect(report.traps.first?.visiblePath == ["home", "terms"])
        #expect(report.neverEntered.map(\.place.pointer) == ["/coordinators/Main/routes/vault"])
        #expect(report.neverEntered.first?.reason.contains("locked") == true)
        #expect(report.graph.limitsReached.isEmpty)
        #expect(report.json["errors"] == 2)
    }

    @Test func everyRouteOfASwiftAppIsReachedByItsShortestWay() throws {
        let report = ExplorationReport(try AppExplorer(app: NavigationApp(name: "shelf", root: { Shelf() })).explore())
        #expect(!report.hasErrors, "\(report.text)")
        let ways = Dictionary(
            uniqueKeysWithValues: report.reached.map { ("\($0.place.coordinator).\($0.place.route)", $0.way) })
        #expect(ways["Shelf.list"] == [])
        #expect(ways["Shelf.book"] == ["tap 'Dune'"])
        #expect(ways["Shelf.terms"] == ["tap 'Terms'"])
        #expect(report.reached.allSatisfy { $0.place.pointer == nil }, "a Swift app's places are types and routes")
        // The handler's own error is reported, not a crash.
        #expect(report.graph.failures.contains { $0.hasPrefix("tap 'Explode' at list: ") })
    }

    @Test func theDemoHasNoTrapAndEveryRouteIsEntered() throws {
        // Bounded by states and depth, not by the clock: a debug build on a machine busy with other suites took
        // 234 s instead of 17 and stopped at the default minute.
        let limits = ExplorationLimits(seconds: 3600)
        let report = ExplorationReport(try AppExplorer(app: TodoDemo.app, limits: limits).explore())
        #expect(report.graph.limitsReached.isEmpty)
        #expect(report.traps.isEmpty)
        #expect(report.neverEntered.isEmpty, "\(report.neverEntered.map(\.place))")
        #expect(report.graph.states.count > 100)
    }

    @Test func anExplorationPastItsLimitsSaysWhatWasCut() throws {
        let limits = ExplorationLimits(states: 5, depth: 2, seconds: 60)
        let report = ExplorationReport(try AppExplorer(app: TodoDemo.app, limits: limits).explore())
        #expect(report.graph.states.count == 5)
        #expect(report.graph.limitsReached == ["5 states"])
        #expect(report.text.contains("partial: stopped at 5 states"))
        #expect(report.traps.isEmpty, "states past a limit are not judged")
    }

    @Test func aSuiteCoversEveryTransitionAndReplaysToTheSamePaths() throws {
        let app = try definition(Self.trap)
        let graph = try AppExplorer(app: app).explore()
        let suite = try TestSuite(graph, app: app)
        let taken = Set(suite.cases.flatMap { $0.steps.compactMap(\.transition) })
        #expect(taken == Set(graph.transitions))
        #expect(suite.transitions == graph.transitions.count)
        // Read back from its JSON, the suite is the same.
        let read = try TestSuite(json: suite.json)
        #expect(read.cases.map { $0.steps.map(\.path) } == suite.cases.map { $0.steps.map(\.path) })
        #expect(suite.curlScript.contains("'\"path\":[\"home\",\"terms\"]'"))
    }
}
