import Switchyard
import Testing
import TodoDemo

@Suite("Demo deep links")
struct DemoDeepLinkTests {
    @Test func jumperLinksFocusTabsAndPresentTheTodoModally() throws {
        let demo = try Demo().loggedIn()
        try demo.engine.open("jumper://io.idevs/settings")
        #expect(demo.path == ["authenticated", "settings", "settings"])
        try demo.engine.open("jumper://io.idevs/home")
        #expect(demo.path == ["authenticated", "home", "favourites"])
        try demo.engine.open("jumper://io.idevs/todo/hello-world")
        #expect(demo.path == ["authenticated", "todos", "list", "todo"])
        #expect(
            demo.state["tree"]?["root"]?["coordinator"]?["tabs"]?.jsonString.contains("\"presentation\":\"modal\"")
                == true)
    }

    @Test func everyExampleTheCatalogOffersOpens() throws {
        #expect(TodoDemo.app.deepLinkExamples.count == TodoDemo.app.deepLinkPatterns.count)
        #expect(TodoDemo.app.catalog()["deepLinkExamples"] == .array(TodoDemo.app.deepLinkExamples.map { .string($0) }))
        for example in TodoDemo.app.deepLinkExamples {
            let demo = try Demo().loggedIn()
            #expect(try demo.engine.open(example) == .opened, "\(example)")
        }
    }

    @Test func stinsenAndWebLinksFocusPopAndPush() throws {
        let demo = try Demo().loggedIn()
        try demo.engine.tapTab("todos")
        try demo.steps([Step(.push(route: "todo", input: "write-docs"))])
        try demo.engine.tapTab("home")
        try demo.engine.open("stinsenapp://todo/buy-milk")
        #expect(demo.path == ["authenticated", "todos", "list", "todo"])
        #expect(demo.state["visible"]?["screen"]?["title"] == "Buy milk")
        try demo.engine.open("https://example.org/todo/hello-world")
        #expect(demo.path == ["authenticated", "todos", "list", "todo"])
        #expect(demo.state["visible"]?["screen"]?["title"] == "Hello, world!")
    }

    @Test func anUnknownTodoIsNotFoundAndChangesNothing() throws {
        let demo = try Demo().loggedIn()
        let version = demo.engine.version
        #expect(throws: NavigationError.self) { try demo.engine.open("jumper://io.idevs/todo/nope") }
        #expect(throws: NavigationError.self) { try demo.engine.open("jumper://io.idevs/unknown") }
        #expect(demo.engine.version == version)
    }

    @Test func aLinkOpenedWhileLoggedOutCompletesRightAfterLogin() throws {
        let demo = try Demo()
        #expect(try demo.engine.open("stinsenapp://todo/buy-milk") == .pending)
        #expect(demo.state["pendingDeepLink"] == "stinsenapp://todo/buy-milk")
        try demo.event("completeOnboarding")
        #expect(demo.engine.pendingDeepLink != nil)
        try demo.event("login", fields: ["username": "ada"])
        #expect(demo.engine.pendingDeepLink == nil)
        #expect(demo.path == ["authenticated", "todos", "list", "todo"])
    }

    @Test func aDemoSessionRoundTripsThroughJSON() throws {
        let demo = try Demo().loggedIn()
        try demo.engine.open("jumper://io.idevs/todo/buy-milk")
        // The todo's sheet covers the tab bar: code switches the tab (a user could not), the sheet stays.
        try demo.engine.perform([Step(.focus(route: "settings"))], from: "AuthenticatedCoordinator")
        try demo.steps([Step(.push(route: "green")), Step(.route(route: "settingsCoordinator"))])
        let document = demo.engine.stateDocument()
        let restored = try TodoDemo.app.restoreEngine(from: try JSONValue(parsing: document))
        #expect(restored.stateDocument() == document)
    }
}
