import Switchyard
import Testing
import TodoDemo

/// Drives the demo the way the page does: by name, from screen actions and flow events.
struct Demo {
    let engine: NavigationEngine

    init() throws {
        engine = try TodoDemo.app.makeEngine()
    }

    var path: [String] { engine.visiblePath }
    var state: JSONValue { engine.stateValue() }
    var visibleItem: String { state["visible"]?["item"]?.stringValue ?? "" }

    /// Sends an event from the visible screen, like a button with a `fields` list.
    func event(_ name: String, payload: JSONValue = .null, fields: [String: String] = [:]) throws {
        try engine.send(FlowEvent(name: name, payload: payload, fields: fields), from: visibleItem)
    }

    /// Performs a step chain from the coordinator that owns the visible screen.
    func steps(_ steps: [Step]) throws {
        try engine.perform(steps, from: state["visible"]?["coordinator"]?.stringValue)
    }

    func loggedIn(_ user: String = "ada") throws -> Demo {
        try event("completeOnboarding")
        try event("login", fields: ["username": user])
        return self
    }

    /// The titles of the buttons of the visible screen.
    var buttons: [String] {
        guard case .array(let elements)? = state["visible"]?["screen"]?["content"] else { return [] }
        return elements.compactMap { $0["type"] == "button" ? $0["title"]?.stringValue : nil }
    }
}

@Suite("Demo flows")
struct DemoFlowTests {
    @Test func onboardingThenLoginThenTabs() throws {
        let demo = try Demo()
        #expect(demo.path == ["onboarding", "welcome"])
        try demo.event("completeOnboarding")
        #expect(demo.path == ["unauthenticated", "login"])
        try demo.event("login", fields: ["username": "ada"])
        #expect(demo.path == ["authenticated", "home", "favourites"])
        let tabs = demo.state["tree"]?["root"]?["coordinator"]?["tabs"]
        guard case .array(let entries)? = tabs else {
            Issue.record("no tabs")
            return
        }
        #expect(entries.map { $0["route"] } == ["home", "todos", "settings", "profile"])
        #expect(entries.map { $0["tabItem"]?["title"] } == ["Home", "Todos", "Settings", "Profile"])
    }

    @Test func anEmptyUsernameShowsTheAlert() throws {
        let demo = try Demo()
        try demo.event("completeOnboarding")
        try demo.event("login", fields: ["username": "  "])
        let alert = demo.state["tree"]?["root"]?["coordinator"]?["alert"]
        #expect(alert?["title"] == "Error")
        #expect(alert?["message"] == "Username should not be empty")
        try demo.engine.perform([Step(.respondToAlert(choice: 0))], from: "UnauthenticatedCoordinator")
        #expect(demo.state["tree"]?["root"]?["coordinator"]?["alert"] == nil)
    }

    @Test func forgotPasswordPushesAndOKPopsToRoot() throws {
        let demo = try Demo()
        try demo.event("completeOnboarding")
        try demo.steps([Step(.route(route: "forgotPassword"))])
        #expect(demo.path == ["unauthenticated", "login", "forgotPassword"])
        try demo.steps([Step(.popToRoot)])
        #expect(demo.path == ["unauthenticated", "login"])
    }

    @Test func registrationSharesTheStackAndRegisterLogsIn() throws {
        let demo = try Demo()
        try demo.event("completeOnboarding")
        try demo.steps([Step(.route(route: "registration"))])
        #expect(demo.path == ["unauthenticated", "login", "registration", "start"])
        try demo.event("next", fields: ["username": "bob"])
        #expect(demo.path == ["unauthenticated", "login", "registration", "start", "password"])
        try demo.engine.goBack()
        #expect(demo.path == ["unauthenticated", "login", "registration", "start"])
        try demo.event("next", fields: ["username": "bob"])
        try demo.event("register", payload: ["username": "bob"])
        #expect(demo.path == ["authenticated", "home", "favourites"])
        #expect(demo.state["tree"]?["root"]?["input"] == "bob")
    }

    @Test func favouritesChainFocusesTodosPopsAndPushes() throws {
        let demo = try Demo().loggedIn()
        try demo.engine.tapTab("todos")
        try demo.steps([Step(.push(route: "todo", input: "buy-milk"))])
        try demo.engine.tapTab("home")
        try demo.event("openTodo", payload: ["id": "hello-world"])
        #expect(demo.path == ["authenticated", "todos", "list", "todo"])
        #expect(demo.state["visible"]?["screen"]?["title"] == "Hello, world!")
    }

    @Test func favouriteToggleBubblesUpToHome() throws {
        let demo = try Demo().loggedIn()
        try demo.engine.tapTab("todos")
        try demo.steps([Step(.push(route: "todo", input: "buy-milk"))])
        try demo.event("toggleFavourite", payload: ["id": "buy-milk"], fields: ["favourite": "true"])
        try demo.engine.tapTab("home")
        guard case .array(let content)? = demo.state["visible"]?["screen"]?["content"] else {
            Issue.record("no content")
            return
        }
        let rows = content.first { $0["type"] == "list" }?["rows"]
        guard case .array(let favourites)? = rows else {
            Issue.record("no favourites")
            return
        }
        #expect(favourites.map { $0["id"] } == ["hello-world", "buy-milk"])
        #expect(content.contains { $0["text"]?.stringValue?.hasPrefix("Updated 1") == true })
    }

    @Test func createTodoInAModalFlow() throws {
        let demo = try Demo().loggedIn()
        try demo.engine.tapTab("todos")
        try demo.steps([Step(.route(route: "create"))])
        #expect(demo.path == ["authenticated", "todos", "list", "create", "form"])
        try demo.event("create", fields: ["name": "Walk the dog"])
        #expect(demo.path == ["authenticated", "todos", "list"])
        #expect(String(decoding: demo.engine.stateDocument(), as: UTF8.self).contains("walk-the-dog"))
    }

    @Test func reselectingASelectedTabPopsItToRoot() throws {
        let demo = try Demo().loggedIn()
        try demo.engine.tapTab("settings")
        try demo.steps([Step(.push(route: "green")), Step(.push(route: "yellow"))])
        try demo.engine.tapTab("settings")
        #expect(demo.path == ["authenticated", "settings", "settings"])
    }

    @Test func logoutSwitchesRootToLogin() throws {
        let demo = try Demo().loggedIn()
        try demo.engine.tapTab("profile")
        #expect(demo.buttons == ["Log out"])
        try demo.event("logout")
        #expect(demo.path == ["unauthenticated", "login"])
    }
}
