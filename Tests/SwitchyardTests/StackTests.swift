import Switchyard
import Testing

@Suite("Navigation stacks")
struct StackTests {
    func mainStack() throws -> (NavigationEngine, StackCoordinator) {
        let (engine, app) = try makeEngine()
        let main = try app.root(\.main)
        return (engine, main)
    }

    @Test func routeReturnsSelfForScreensAndTheChildForCoordinators() throws {
        let (engine, main) = try mainStack()
        let same = try main.route(to: \.detail, "42")
        #expect(same === main)
        let nested = try main.route(to: \.nested)
        #expect(nested !== main)
        #expect(nested.name == "nested")
        #expect(engine.visiblePath == ["main", "home", "detail", "nested", "home"])
    }

    @Test func everyCommittedChangeAddsOneToTheVersion() throws {
        let (engine, main) = try mainStack()
        let start = engine.version
        try main.route(to: \.a)
        #expect(engine.version == start + 1)
        try engine.transaction {
            try main.route(to: \.b).route(to: \.a)
        }
        #expect(engine.version == start + 2)
        try main.popToRoot()
        #expect(engine.version == start + 3)
        try main.popToRoot()  // already at root: nothing changes
        #expect(engine.version == start + 3)
    }

    @Test func typedInputsArriveAndAreKeptAsJSON() throws {
        let (engine, main) = try mainStack()
        try main.route(to: \.profile, Profile(name: "Ada", age: 36))
        let state = engine.stateValue()
        let item = state["tree"]?["root"]?["coordinator"]?["stack"]
        guard case .array(let items)? = item else {
            Issue.record("no stack")
            return
        }
        #expect(items.first?["input"] == ["name": "Ada", "age": 36])
        #expect(items.first?["screen"]?["title"] == "Ada 36")
    }

    @Test func popAtRootIsRefused() throws {
        let (engine, main) = try mainStack()
        expectRefusal(engine, "cannotPopRoot") { try main.pop() }
    }

    @Test func popRemovesTheTopItemWhetherPushedOrPresented() throws {
        let (engine, main) = try mainStack()
        try main.route(to: \.a).route(to: \.sheet)
        try main.pop()
        #expect(main.stackRoutes == ["home", "a"])
        try main.popLast()
        #expect(main.stackRoutes == ["home"])
        #expect(engine.visiblePath == ["main", "home"])
    }

    @Test func popToDefaultsToTheLastMatchAndFirstIsAvailable() throws {
        let (engine, main) = try mainStack()
        defer { withExtendedLifetime(engine) {} }
        try main.route(to: \.a).route(to: \.b).route(to: \.a).route(to: \.detail, "x")
        try main.pop(to: \.a)
        #expect(main.stackRoutes == ["home", "a", "b", "a"])
        try main.route(to: \.detail, "y")
        try main.pop(to: \.a, match: .first)
        #expect(main.stackRoutes == ["home", "a"])
    }

    @Test func popToARouteNotInTheStackIsRefused() throws {
        let (engine, main) = try mainStack()
        try main.route(to: \.a)
        let error = expectRefusal(engine, "routeNotInStack") { try main.pop(to: \.b) }
        #expect(error?.choices == ["home", "a"])
    }

    @Test func focusFirstPopsToTheFirstMatchAndTheRootCounts() throws {
        let (engine, main) = try mainStack()
        try main.route(to: \.a).route(to: \.b).route(to: \.a)
        try main.focusFirst(\.a)
        #expect(main.stackRoutes == ["home", "a"])
        try main.focusFirst(\.home)
        #expect(main.stackRoutes == ["home"])
        expectRefusal(engine, "routeNotInStack") { try main.focusFirst(\.b) }
    }

    @Test func pushStackAnimatesOnlyTheLastPush() throws {
        let (engine, main) = try mainStack()
        try main.push(stack: [\StackCoordinator.a, \StackCoordinator.b, \StackCoordinator.a])
        #expect(main.stackRoutes == ["home", "a", "b", "a"])
        let stack = engine.stateValue()["tree"]?["root"]?["coordinator"]?["stack"]
        guard case .array(let items)? = stack else {
            Issue.record("no stack")
            return
        }
        #expect(items.map { $0["animated"] } == [false, false, true])
    }

    @Test func popItemRemovesThatItemAndEverythingAbove() throws {
        let (engine, main) = try mainStack()
        try main.route(to: \.a).route(to: \.b).route(to: \.a)
        let stack = engine.stateValue()["tree"]?["root"]?["coordinator"]?["stack"]
        guard case .array(let items)? = stack, let id = items[1]["id"]?.stringValue else {
            Issue.record("no stack")
            return
        }
        try main.pop(item: #require(ItemID(id)))
        #expect(main.stackRoutes == ["home", "a"])
        expectRefusal(engine, "itemNotFound") { try main.pop(item: #require(ItemID("i999"))) }
    }

    @Test func aPushedNavigationCoordinatorContinuesTheStackAndItsParentCanPushAbove() throws {
        let (engine, main) = try mainStack()
        let nested = try main.route(to: \.nested)
        try nested.route(to: \.a)
        try main.route(to: \.b)
        #expect(engine.visiblePath == ["main", "home", "nested", "home", "a", "b"])
        try engine.goBack()
        #expect(engine.visiblePath == ["main", "home", "nested", "home", "a"])
    }

    @Test func pushingATabCoordinatorIsRefused() throws {
        let (engine, main) = try mainStack()
        expectRefusal(engine, "cannotPush") { _ = try main.route(to: \.tabsPush) }
    }

    @Test func aPushAfterAModalLandsInsideThatModalsLayer() throws {
        let (engine, main) = try mainStack()
        try main.route(to: \.sheet).route(to: \.a)
        #expect(engine.visiblePath == ["main", "home", "sheet", "a"])
        try engine.goBack()
        #expect(engine.visiblePath == ["main", "home", "sheet"])
        expectRefusal(engine, "cannotGoBack") { try engine.goBack() }
    }

    @Test func modalOnModalStacks() throws {
        let (engine, main) = try mainStack()
        try main.route(to: \.sheet).route(to: \.cover).route(to: \.sheet)
        #expect(main.stackRoutes == ["home", "sheet", "cover", "sheet"])
        try engine.dismissTopModal()
        #expect(main.stackRoutes == ["home", "sheet", "cover"])
    }

    @Test func rootSwitchWithEqualInputChangesNothingAndOtherwiseClearsTheStack() throws {
        let (engine, main) = try mainStack()
        try main.route(to: \.a).route(to: \.sheet)
        let version = engine.version
        try main.root(\.home)
        #expect(engine.version == version)
        #expect(main.stackRoutes == ["home", "a", "sheet"])
        try main.root(\.other)
        #expect(main.stackRoutes == ["other"])
        #expect(main.isRoot(\.other))
        #expect(!main.isRoot(\.home))
    }

    @Test func showPushesOnANavigationCoordinator() throws {
        let (engine, main) = try mainStack()
        defer { withExtendedLifetime(engine) {} }
        try main.show(\.a)
        #expect(main.stackRoutes == ["home", "a"])
    }

    @Test func presentUsesModalOrTheRequestedStyle() throws {
        let (engine, main) = try mainStack()
        try main.present(\.a, as: .fullScreen)
        let stack = engine.stateValue()["tree"]?["root"]?["coordinator"]?["stack"]
        guard case .array(let items)? = stack else {
            Issue.record("no stack")
            return
        }
        #expect(items.first?["presentation"] == "fullScreen")
        expectRefusal(engine, "invalidPresentation") { try main.present(\.b, as: .push) }
    }
}
