import Switchyard
import Testing

@Suite("Root and tab coordinators")
struct RootAndTabTests {
    @Test func hasRootReturnsTheChildOnlyForTheCurrentRoot() throws {
        let (engine, app) = try makeEngine()
        defer { withExtendedLifetime(engine) {} }
        #expect(app.hasRoot(\.main) == nil)
        let main = try app.root(\.main)
        #expect(app.hasRoot(\.main) === main)
        #expect(app.isRoot(\.main))
        #expect(app.hasRoot(\.tabs) == nil)
    }

    /// `isRoot` by name: a query step that goes on in the same coordinator, or refuses with the current root.
    @Test func isRootByNameGuardsAChainAndChangesNothing() throws {
        let (engine, app) = try makeEngine()
        try app.root(\.main)
        let version = engine.version
        try engine.perform([Step(.isRoot(route: "main"))])
        #expect(engine.version == version, "a query alone commits nothing")
        try engine.perform([Step(.isRoot(route: "home")), Step(.push(route: "a"))], from: "StackCoordinator")
        #expect(engine.visiblePath == ["main", "home", "a"])
        let refusal = expectRefusal(engine, "notRoot") {
            try engine.perform([Step(.isRoot(route: "other")), Step(.push(route: "b"))], from: "StackCoordinator")
        }
        #expect(refusal?.message == "the current root is 'home', not 'other'")
        #expect(engine.visiblePath == ["main", "home", "a"], "the chain stopped before its push")
        expectRefusal(engine, "wrongRouteKind") {
            try engine.perform([Step(.isRoot(route: "a"))], from: "StackCoordinator")
        }
    }

    @Test func switchingRootRemovesPresentationsAndFinishesTheOldChild() throws {
        let log = HookLog()
        let (engine, app) = try makeEngine(log: log)
        let main = try app.root(\.main)
        try main.route(to: \.a)
        try app.present(\.sheet)
        #expect(engine.visiblePath == ["main", "home", "a", "sheet"])
        try app.root(\.tabs)
        #expect(engine.visiblePath == ["tabs", "one", "home"])
        #expect(log.lines.contains("finish main"))
        #expect(main.nodeID == nil)
        expectRefusal(engine, "detached") { try main.route(to: \.b) }
    }

    @Test func rootWithEqualInputKeepsTheSameChild() throws {
        let (engine, app) = try makeEngine()
        let first = try app.root(\.user, "ada")
        let version = engine.version
        let again = try app.root(\.user, "ada")
        #expect(first === again)
        #expect(engine.version == version)
        let other = try app.root(\.user, "bob")
        #expect(other !== first)
    }

    @Test func focusSelectsATabReturnsItsContentAndKeepsStacks() throws {
        let (engine, app) = try makeEngine()
        let tabs = try app.root(\.tabs)
        let one = try tabs.focus(\.one)
        try one.route(to: \.a)
        let two = try tabs.focus(\.two)
        try two.route(to: \.b)
        #expect(tabs.selectedTab == "two")
        _ = try tabs.focusFirst(\.one)
        #expect(engine.visiblePath == ["tabs", "one", "home", "a"])
        #expect(two.stackRoutes == ["home", "b"])
    }

    @Test func focusingTheSelectedTabChangesNothing() throws {
        let (engine, app) = try makeEngine()
        let tabs = try app.root(\.tabs)
        let version = engine.version
        _ = try tabs.focus(\.one)
        #expect(engine.version == version)
    }

    @Test func focusingSomethingThatIsNotATabIsRefusedByName() throws {
        let (engine, app) = try makeEngine()
        let tabs = try app.root(\.tabs)
        let error = expectRefusal(engine, "notATab") {
            try engine.perform([Step(.focus(route: "sheet"))], from: tabs.nodeID)
        }
        #expect(error?.choices == ["one", "two", "three"])
        expectRefusal(engine, "unknownRoute") {
            try engine.perform([Step(.focus(route: "nope"))], from: tabs.nodeID)
        }
    }

    @Test func tabsCanBeAddedAndRemovedAtRunTime() throws {
        let (engine, app) = try makeEngine()
        let tabs = try app.root(\.tabs)
        try tabs.addTab(\.extra, "Fourth", select: true)
        #expect(tabs.tabRoutes == ["one", "two", "three", "extra"])
        #expect(tabs.selectedTab == "extra")
        #expect(engine.visiblePath == ["tabs", "extra"])
        let tabList = engine.stateValue()["tree"]?["root"]?["coordinator"]?["tabs"]
        guard case .array(let entries)? = tabList, let id = entries.last?["id"]?.stringValue else {
            Issue.record("no tabs")
            return
        }
        #expect(entries.last?["tabItem"]?["title"] == "Extra")
        try tabs.removeTab(item: #require(ItemID(id)))
        #expect(tabs.tabRoutes == ["one", "two", "three"])
        #expect(tabs.selectedTab == "three")
    }

    @Test func theLastTabCannotBeRemoved() throws {
        let (engine, app) = try makeEngine()
        let tabs = try app.root(\.tabs)
        for _ in 0..<2 {
            let id = try #require(engine.stateValue()["tree"]?["root"]?["coordinator"]?["selectedTabId"]?.stringValue)
            try tabs.removeTab(item: #require(ItemID(id)))
        }
        let last = try #require(engine.stateValue()["tree"]?["root"]?["coordinator"]?["selectedTabId"]?.stringValue)
        let lastID = try #require(ItemID(last))
        expectRefusal(engine, "cannotRemoveLastTab") { try tabs.removeTab(item: lastID) }
    }

    @Test func showOnATabCoordinatorAppendsATab() throws {
        let (engine, app) = try makeEngine()
        let tabs = try app.root(\.tabs)
        try engine.perform([Step(.show(route: "extra", input: "New"))], from: tabs.nodeID)
        #expect(tabs.tabRoutes == ["one", "two", "three", "extra"])
        #expect(tabs.selectedTab == "extra")
    }

    @Test func tabItemsAndDecorationsAreRendered() throws {
        let (engine, app) = try makeEngine()
        try app.root(\.tabs)
        let node = engine.stateValue()["tree"]?["root"]?["coordinator"]
        #expect(node?["decoration"]?["tint"] == "#ff0000")
        guard case .array(let tabs)? = node?["tabs"] else {
            Issue.record("no tabs")
            return
        }
        #expect(tabs[0]["tabItem"] == ["title": "One", "icon": "circle.fill", "badge": "1"])
        #expect(tabs[1]["tabItem"]?["badge"] == "9")
    }

    @Test func childMovesIntoTheRootOrSelectedTabContent() throws {
        let (engine, app) = try makeEngine()
        expectRefusal(engine, "noChild") { _ = try app.child(as: StackCoordinator.self) }
        try app.root(\.main)
        #expect(try app.child(as: StackCoordinator.self).name == "main")
        let tabs = try app.root(\.tabs)
        let end = try engine.perform([Step(.child)], from: tabs.nodeID)
        #expect(end == (try tabs.focus(\.one)).nodeID)
    }

    @Test func theStinsenChainWorksTyped() throws {
        let (engine, app) = try makeEngine()
        try app.root(\.tabs)
        let two = try app.hasRoot(\.tabs)!.focus(\.two)
        try two.route(to: \.a)
        try engine.transaction {
            try app.hasRoot(\.tabs)?.focusFirst(\.two).popToRoot().route(to: \.detail, "7")
        }
        #expect(engine.visiblePath == ["tabs", "two", "home", "detail"])
    }
}
