import Switchyard
import Testing

@Suite("Deep links")
struct DeepLinkTests {
    @Test func aMatchingLinkAppliesItsChainAtomically() throws {
        let (engine, _) = try makeEngine()
        #expect(try engine.open("test://app/page/7") == .opened)
        #expect(engine.visiblePath == ["main", "home", "detail"])
        #expect(engine.version == 1)
    }

    @Test func examplesArePatternsSampleLinksAndOnlyThoseTheyMatch() {
        let router = DeepLinkRouter<AppRoot>()
            .route("app://todo/:id(int)", examples: ["app://todo/7", "app://todo/seven", "other://todo/1"]) { _, _ in
                .opened
            }
            .route("app://home", examples: ["app://home"]) { _, _ in .opened }
            .route("app://settings") { _, _ in .opened }
        #expect(router.examples == ["app://todo/7", "app://home"])
        #expect(router.patterns.count == 3)
    }

    @Test func aTypedParameterThatDoesNotParseDoesNotMatch() throws {
        let (engine, _) = try makeEngine()
        let error = expectRefusal(engine, "deepLinkNotMatched") { try engine.open("test://app/page/seven") }
        #expect(error?.choices.count == 4)
        expectRefusal(engine, "deepLinkNotMatched") { try engine.open("other://app/page/1") }
        expectRefusal(engine, "deepLinkNotMatched") { try engine.open("not a url") }
    }

    @Test func schemeAlternativesAndAnyHostMatch() throws {
        let (engine, _) = try makeEngine()
        try engine.open("https://example.com/tab/two")
        #expect(engine.visiblePath == ["tabs", "two", "home"])
        try engine.open("http://localhost:8080/tab/one")
        #expect(engine.visiblePath == ["tabs", "one", "home"])
    }

    @Test func aHandlerThatRefusesChangesNothing() throws {
        let (engine, _) = try makeEngine()
        expectRefusal(engine, "deepLinkUnresolved") { try engine.open("https://x/tab/nine") }
    }

    @Test func aPendingLinkIsKeptAndCompletedAfterThePreconditionHolds() throws {
        let (engine, app) = try makeEngine()
        #expect(try engine.open("test://app/detail/42") == .pending)
        #expect(engine.pendingDeepLink == "test://app/detail/42")
        #expect(engine.version == 1)
        let run = engine.collectingCommits { try app.root(\.main) }
        let commits = run.commits
        #expect(throws: Never.self) { try run.get() }
        #expect(engine.pendingDeepLink == nil)
        #expect(engine.visiblePath == ["main", "home", "detail"])
        #expect(commits.map(\.cause) == [.direct, .pendingDeepLink])
        #expect(engine.version == 3)
    }

    @Test func aPendingLinkThatTheCommitCheckRefusesStaysPending() throws {
        // A limit just under the document the completed link makes (the home screen's, link pending, is shorter).
        let (measured, measuredApp) = try makeEngine()
        _ = try measured.open("test://app/detail/42")
        try measuredApp.root(\.main)
        let completed = measured.stateDocument().count
        let (engine, app) = try makeEngine()
        #expect(try engine.open("test://app/detail/42") == .pending)
        engine.commitPolicy = CommitPolicy(maxDocumentBytes: completed - 1)
        try app.root(\.main)
        #expect(engine.visiblePath == ["main", "home"])
        #expect(engine.pendingDeepLink == "test://app/detail/42", "kept for a later change, not dropped")
        engine.commitPolicy = nil
        try app.root(\.main)
    }

    @Test func aPendingHandlerKeepsNoneOfItsChanges() throws {
        let (engine, _) = try makeEngine()
        #expect(try engine.open("test://app/partial") == .pending)
        #expect(engine.visiblePath == ["launch"])
        #expect(engine.version == 1)
    }

    @Test func queryParametersArePassedAndDeclaredOnesAreRequired() throws {
        let router = DeepLinkRouter<AppRoot>().route("app://x/search?q=:query") { _, _ in .opened }
        let link = try #require(router.match("app://x/search?q=milk&page=2")?.0)
        #expect(link.parameters["query"] == "milk")
        #expect(link.query["page"] == "2")
        #expect(router.match("app://x/search") == nil)
    }

    @Test func percentEncodedSegmentsAreDecoded() throws {
        let router = DeepLinkRouter<AppRoot>().route("app://x/todo/:id") { _, _ in .opened }
        #expect(router.match("app://x/todo/buy%20milk")?.0.parameters["id"] == "buy milk")
    }
}
