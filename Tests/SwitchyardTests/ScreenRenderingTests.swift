import Switchyard
import Testing

/// Data outside the tree that screens read, counting its changes and the screens' renders.
private final class Tally {
    var value = 0 {
        didSet { revision += 1 }
    }
    private(set) var revision = 0
    var renders: [String: Int] = [:]
}

/// A screen that says when it changes (`declaresRevision`), or not.
private struct TallyScreen: Screen {
    let name: String
    let tally: Tally
    let declaresRevision: Bool

    var contentRevision: Int? { declaresRevision ? tally.revision : nil }

    func render() -> ScreenContent {
        tally.renders[name, default: 0] += 1
        return ScreenContent(
            title: name, content: [.text("\(name) \(tally.value)"), .button("Next", action: .push("b"))])
    }
}

private final class TallyCoordinator: NavigationCoordinatable {
    let stack = NavigationStack(initial: \TallyCoordinator.home)
    let tally = Tally()

    @Root var home = makeHome
    @Route(.push) var a = makeA
    @Route(.push) var b = makeB
    @Route(.push) var fixed = makeFixed

    func makeHome() -> TallyScreen { TallyScreen(name: "home", tally: tally, declaresRevision: true) }
    func makeA() -> TallyScreen { TallyScreen(name: "a", tally: tally, declaresRevision: true) }
    func makeB() -> TallyScreen { TallyScreen(name: "b", tally: tally, declaresRevision: false) }
    func makeFixed() -> ScreenContent { ScreenContent(title: "Fixed", content: [.text("always the same")]) }
}

@Suite("Screen renderings kept between documents")
struct ScreenRenderingTests {
    private func engines() throws -> (kept: NavigationEngine, plain: NavigationEngine, coordinator: TallyCoordinator) {
        let coordinator = TallyCoordinator()
        let kept = try NavigationEngine(root: coordinator)
        kept.screenRenderings = ScreenRenderings()
        let plain = try NavigationEngine(root: TallyCoordinator())
        return (kept, plain, coordinator)
    }

    @Test func aScreenWhoseRevisionStaysIsNotRenderedAgainAndTheDocumentIsTheSame() throws {
        let (kept, plain, coordinator) = try engines()
        let plainRoot = try #require(plain.rootCoordinator as? TallyCoordinator)
        for engine in [kept, plain] {
            let root = try #require(engine.rootCoordinator as? TallyCoordinator)
            try root.route(to: \.a)
            try root.route(to: \.fixed)
        }
        _ = kept.stateDocument()
        let rendersAfterFirst = coordinator.tally.renders
        for _ in 0..<3 {
            #expect(kept.stateDocument(session: "s") == plain.stateDocument(session: "s"))
        }
        #expect(coordinator.tally.renders == rendersAfterFirst, "home and a kept their renderings")
        #expect(plainRoot.tally.renders["a"] == 3, "rendered for each document")
        #expect(kept.screenRenderings?.count == 3, "home, a and the fixed screen")
    }

    @Test func aChangedRevisionRendersAgainAndShowsTheNewData() throws {
        let (kept, plain, coordinator) = try engines()
        try coordinator.route(to: \.a)
        _ = kept.stateDocument()
        coordinator.tally.value = 7
        let plainRoot = try #require(plain.rootCoordinator as? TallyCoordinator)
        try plainRoot.route(to: \.a)
        plainRoot.tally.value = 7
        #expect(kept.stateDocument() == plain.stateDocument())
        #expect(String(decoding: kept.stateDocument(), as: UTF8.self).contains("a 7"))
        #expect(coordinator.tally.renders["a"] == 2)
    }

    @Test func aScreenWithoutRevisionIsRenderedForEveryDocumentAndNotKept() throws {
        let (kept, _, coordinator) = try engines()
        try coordinator.route(to: \.b)
        for _ in 0..<3 { _ = kept.stateDocument() }
        // The top screen appears twice in a document, and is rendered once for it.
        #expect(coordinator.tally.renders["b"] == 3)
        #expect(kept.screenRenderings?.count == 1, "only home")
    }

    @Test func anItemThatLeftTheTreeLeavesItsRendering() throws {
        let (kept, _, coordinator) = try engines()
        try coordinator.route(to: \.a)
        _ = kept.stateDocument()
        #expect(kept.screenRenderings?.count == 2)
        try coordinator.pop()
        _ = kept.stateDocument()
        #expect(kept.screenRenderings?.count == 1)
    }

    @Test func anIdGivenAgainAfterARolledBackCheckShowsItsOwnScreen() throws {
        let (kept, _, coordinator) = try engines()
        _ = kept.stateDocument()
        // The check writes the document (keeping `a`'s rendering under the new item's id), then refuses.
        kept.commitPolicy = CommitPolicy(maxDocumentBytes: 1)
        #expect(throws: CommitRefusal.self) { try coordinator.route(to: \.a) }
        kept.commitPolicy = nil
        // The same id now goes to the fixed screen, whose revision (0) is `a`'s revision too.
        try coordinator.route(to: \.fixed)
        let document = try JSONValue(parsing: kept.stateDocument())
        #expect(document["visible"]?["screen"]?["title"] == "Fixed")
    }

    @Test func aRestoreDropsTheRenderings() throws {
        let (kept, plain, coordinator) = try engines()
        try coordinator.route(to: \.a)
        _ = kept.stateDocument()
        // The other engine gives the same item id to the fixed screen, whose revision (0) is `a`'s too.
        let plainRoot = try #require(plain.rootCoordinator as? TallyCoordinator)
        try plainRoot.route(to: \.fixed)
        try kept.restore(to: try JSONValue(parsing: plain.restoreDocument()))
        let document = try JSONValue(parsing: kept.stateDocument())
        #expect(document["visible"]?["screen"]?["title"] == "Fixed")
    }

    @Test func renderingsDroppedFromAnotherThreadAreRenderedAgain() async throws {
        let (kept, _, coordinator) = try engines()
        _ = kept.stateDocument()
        let renderings = try #require(kept.screenRenderings)
        #expect(renderings.bytes > 0)
        await Task.detached { renderings.removeAll() }.value
        #expect(renderings.bytes == 0)
        _ = kept.stateDocument()
        #expect(coordinator.tally.renders["home"] == 2)
    }
}
