import Switchyard
import Testing

@Suite("Flow events and lifecycle")
struct EventAndLifecycleTests {
    @Test func theSenderHandlesFirstThenEachParent() throws {
        let (engine, app) = try makeEngine()
        let main = try app.root(\.main)
        let nested = try main.route(to: \.nested)
        main.handled = ["ping"]
        let handler = try nested.send(FlowEvent(name: "ping"))
        #expect(handler === main)
        nested.handled = ["ping"]
        let version = engine.version
        #expect(try nested.send(FlowEvent(name: "ping")) === nested)
        #expect(engine.version == version + 1)  // handled: a new version even though the tree did not move
    }

    @Test func eventsFromAScreenStartAtItsOwnerAndMayTransition() throws {
        let (engine, app) = try makeEngine()
        let main = try app.root(\.main)
        let screen = try #require(engine.stateValue()["visible"]?["item"]?.stringValue)
        let handler = try engine.send(FlowEvent(name: "goA"), from: screen)
        #expect(handler == main.nodeID)
        #expect(main.stackRoutes == ["home", "a"])
    }

    @Test func eventsBubbleToTheRootWhichMaySwitchRoot() throws {
        let (engine, app) = try makeEngine()
        let main = try app.root(\.main)
        try engine.send(FlowEvent(name: "login", fields: ["username": "ada"]), from: main.nodeID!)
        #expect(engine.visiblePath == ["user", "home"])
        #expect(try app.child(as: StackCoordinator.self).name == "ada")
    }

    @Test func anUnhandledEventIsReportedAndChangesNothing() throws {
        let (engine, app) = try makeEngine()
        let main = try app.root(\.main)
        expectRefusal(engine, "eventNotHandled") { try engine.send(FlowEvent(name: "nobody"), from: main.nodeID!) }
        expectRefusal(engine, "itemNotFound") { try engine.send(FlowEvent(name: "ping"), from: "i999") }
    }

    @Test func aThrowingHandlerRollsBackTheEvent() throws {
        let (engine, app) = try makeEngine()
        let main = try app.root(\.main)
        expectRefusal(engine, "noAlert") {
            try engine.transaction {
                try main.route(to: \.a)
                try main.send(FlowEvent(name: "fail"))
            }
        }
        #expect(main.stackRoutes == ["home"])
    }

    @Test func hooksFireAfterCommitStartParentsFirstFinishDeepestFirst() throws {
        let log = HookLog()
        let (engine, app) = try makeEngine(log: log)
        defer { withExtendedLifetime(engine) {} }
        let main = try app.root(\.main)
        let nested = try main.route(to: \.nested)
        try nested.route(to: \.flow)
        #expect(log.lines == ["start main", "start nested", "start flow"])
        log.lines.removeAll()
        try app.root(\.launch)
        #expect(
            log.lines == [
                "finish flow", "nested saw child finish", "finish nested", "main saw child finish", "finish main",
            ])
    }

    @Test func aFailedTransactionFiresNoHooks() throws {
        let log = HookLog()
        let (engine, app) = try makeEngine(log: log)
        let main = try app.root(\.main)
        log.lines.removeAll()
        expectRefusal(engine, "cannotPopRoot") {
            try engine.transaction {
                try main.route(to: \.nested)
                try main.popToRoot().pop()
            }
        }
        #expect(log.lines.isEmpty)
    }

    @Test func onDismissRunsWhenTheItemLeaves() throws {
        let (engine, app) = try makeEngine()
        defer { withExtendedLifetime(engine) {} }
        let main = try app.root(\.main)
        var dismissed = 0
        try main.route(to: \.a, onDismiss: { dismissed += 1 })
        try main.route(to: \.b)
        #expect(dismissed == 0)
        try main.popToRoot()
        #expect(dismissed == 1)
    }

    @Test func nearestFindsACoordinatorByTypeFromTheVisibleScreen() throws {
        let (engine, app) = try makeEngine()
        let tabs = try app.root(\.tabs)
        let two = try tabs.focus(\.two)
        #expect(engine.nearest(StackCoordinator.self) === two)
        #expect(two.router(TabsCoordinator.self) === tabs)
        #expect(engine.nearest(AppRoot.self) === app)
    }
}

extension EventAndLifecycleTests {
    /// An item that hosts a coordinator (not a screen) sends from the node whose entry it is.
    @Test func eventsFromAnItemHostingACoordinatorStartAtTheNodeHoldingIt() throws {
        let (engine, app) = try makeEngine()
        _ = try app.root(\.main)
        let hosting = try #require(engine.stateValue()["tree"]?["root"]?["id"]?.stringValue)
        let handler = try engine.send(FlowEvent(name: "login", fields: ["username": "ada"]), from: hosting)
        #expect(handler == app.nodeID)
        #expect(engine.visiblePath == ["user", "home"])
    }
}
