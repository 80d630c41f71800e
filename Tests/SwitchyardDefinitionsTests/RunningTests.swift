import Switchyard
import SwitchyardDefinitions
import Testing

/// A defined app runs on the engine: the same tree, steps, events, guards, results, deep links and documents.
@Suite("Running a defined app")
struct RunningTests {
    private func start() throws -> NavigationEngine {
        let loaded = AppDefinition.load(mailDefinition)
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        return try NavigationApp(definition: mailDefinition).makeEngine()
    }

    private func screen(_ engine: NavigationEngine) -> JSONValue? {
        engine.stateValue()["visible"]?["screen"]
    }

    private func login(_ engine: NavigationEngine, as user: String) throws {
        try engine.send(FlowEvent(name: "login", fields: ["user": user]), from: engine.visibleItem!.description)
    }

    @Test func anEventChecksItsRequirementThenSetsDataAndSwitchesRoot() throws {
        let engine = try start()
        #expect(engine.visiblePath == ["login"])
        #expect(throws: NavigationError.self) { try login(engine, as: "") }
        #expect(engine.version == 0)
        try login(engine, as: "ada")
        #expect(engine.visiblePath == ["home", "inbox", "list"])
        #expect(screen(engine)?["title"] == "Inbox of ada")
        let rows = screen(engine)?["content"]?[0]?["rows"]
        #expect(rows?[0]?["title"] == "Hello")
        #expect(rows?[0]?["icon"] == "circle.fill")
        #expect(rows?[1]?["icon"] == "circle")
    }

    @Test func aTabBadgeIsCountedFromTheData() throws {
        let engine = try start()
        try login(engine, as: "ada")
        let tabs = engine.stateValue()["tree"]?["root"]?["coordinator"]?["tabs"]
        #expect(tabs?[0]?["tabItem"]?["badge"] == "2")
        #expect(tabs?[1]?["tabItem"]?["icon"] == "gear")
    }

    @Test func aRowPushesWithItsItemAsInputAndAnEventTogglesTheData() throws {
        let engine = try start()
        try login(engine, as: "ada")
        try engine.perform([Step(.push(route: "message", input: "m1"))], from: "Inbox")
        #expect(screen(engine)?["title"] == "Message m1")
        try engine.send(FlowEvent(name: "markRead", payload: ["id": "m1"]), from: engine.visibleItem!.description)
        try engine.perform([Step(.pop)], from: "Inbox")
        #expect(screen(engine)?["content"]?[0]?["rows"]?[0]?["icon"] == "circle")
    }

    @Test func aGuardRefusesWithItsRenderedMessage() throws {
        let engine = try start()
        try login(engine, as: "grace")
        #expect {
            try engine.perform([Step(.route(route: "compose"))], from: "Inbox")
        } throws: { error in
            (error as? NavigationError)?.code == "notAllowed"
                && (error as? NavigationError)?.message == "Only Ada writes, not grace"
        }
    }

    @Test func aScreenFinishesWithAResultThatItsRouteHandles() throws {
        let engine = try start()
        try login(engine, as: "ada")
        try engine.perform([Step(.route(route: "pickLabel"))], from: "Inbox")
        #expect(screen(engine)?["title"] == "Pick a label")
        try engine.perform([Step(.finish(result: "work"))], from: "Inbox")
        #expect(engine.visiblePath == ["home", "inbox", "list"])
        #expect(try JSONValue(parsing: engine.restoreDocument())["tree"]?["data"]?["label"] == "work")
    }

    @Test func aDeepLinkWaitsForTheLoginThenOpens() throws {
        let engine = try start()
        #expect(try engine.open("mail://message/m2") == .pending)
        try login(engine, as: "ada")
        #expect(engine.visiblePath == ["home", "inbox", "list", "message"])
        #expect(screen(engine)?["title"] == "Message m2")
    }

    @Test func theDataIsSavedWithTheSessionAndComesBack() throws {
        let app = try NavigationApp(definition: mailDefinition)
        let engine = try app.makeEngine()
        try login(engine, as: "ada")
        let restored = try app.restoreEngine(from: JSONValue(parsing: engine.restoreDocument()))
        #expect(restored.visiblePath == engine.visiblePath)
        #expect(restored.stateValue()["visible"]?["screen"]?["title"] == "Inbox of ada")
    }
}

extension JSONValue {
    /// The element at `index` of an array.
    fileprivate subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}
