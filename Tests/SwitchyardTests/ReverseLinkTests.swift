import Switchyard
import Testing

/// Reverse routing: the link that shows what is on screen is one that, opened from the screen's root, shows it again.
@Suite("Reverse routing")
struct ReverseLinkTests {
    static let links = DeepLinkRouter<AppRoot>()
        .route("test://app/pending") { _, _ in .pending }
        .route("https|http://*/item/:id", examples: ["https://example.com/item/1"]) { app, link in
            guard let main = app.hasRoot(\.main) else { return .pending }
            try main.popToRoot().route(to: \.detail, try link.string("id"))
            return .opened
        }
        .route("test://app/page/:n(int)") { app, link in
            try app.root(\.main).route(to: \.detail, String(try link.int("n")))
            return .opened
        }

    func engine() throws -> NavigationEngine {
        try NavigationEngine(root: AppRoot(), deepLinks: Self.links)
    }

    func link(of engine: NavigationEngine) -> String? {
        engine.deepLinkToVisibleScreen {
            try NavigationEngine(restoring: engine.stateValue(), root: AppRoot(), deepLinks: Self.links)
        }
    }

    @Test func theLinkIsSpelledLikeThePatternsExampleWithTheInputsOnScreen() throws {
        let engine = try engine()
        #expect(link(of: engine) == nil, "the launch screen: no link shows it (a pending one does not count)")
        try engine.open("test://app/page/1")
        try engine.open("http://localhost:8080/item/a%20b")
        #expect(engine.visiblePath == ["main", "home", "detail"])
        #expect(link(of: engine) == "https://example.com/item/a%20b", "the example's scheme and host, escaped")
        let version = engine.version
        #expect(engine.visiblePath == ["main", "home", "detail"], "the engine itself is untouched")
        #expect(engine.version == version)
    }

    @Test func aLinkThatWouldNotShowTheScreenAgainIsNotItsLink() throws {
        let engine = try engine()
        try engine.open("test://app/page/7")
        // The int pattern pushes onto whatever is there: from the root it shows home › detail(7) again, but the item
        // link comes first and shows the same.
        #expect(link(of: engine) == "https://example.com/item/7")
        try engine.perform([Step(.push(route: "detail", input: "8"))], from: "StackCoordinator")
        #expect(engine.visiblePath == ["main", "home", "detail", "detail"])
        #expect(link(of: engine) == nil, "two pushed screens: each link opens only one")
    }

    @Test func anEngineWithoutLinksHasNone() throws {
        let engine = try NavigationEngine(root: AppRoot())
        #expect(engine.deepLinkToVisibleScreen { try NavigationEngine(root: AppRoot()) } == nil)
    }
}
