import Switchyard
import Testing

// The README's "Writing your own coordinators" example, kept compiling and true.

private struct TodoScreen: Screen {
    let id: String
    func render() -> ScreenContent {
        ScreenContent(
            title: "Todo \(id)",
            content: [
                .text("Details of \(id)"),
                .button("Back to the list", action: .step(.popToRoot)),
            ])
    }
}

private final class TodosCoordinator: NavigationCoordinatable {
    let stack = NavigationStack(initial: \TodosCoordinator.list)
    @Root var list = makeList
    @Route(.push) var todo = makeTodo
    @Route(.modal(dismissible: false)) var terms = makeTerms

    func makeList() -> ScreenContent {
        ScreenContent(
            title: "Todos",
            content: [
                .list([ListRow(id: "42", title: "The answer", action: .push("todo", input: "42"))])
            ])
    }
    func makeTodo(id: String) -> TodoScreen { TodoScreen(id: id) }
    func makeTerms() -> ScreenContent { ScreenContent(title: "Terms") }
}

private final class ExampleApp: TabCoordinatable {
    let tabs = TabNavigation(\ExampleApp.todos)
    @TabRoute(item: todosItem) var todos = makeTodos
    func makeTodos() -> TodosCoordinator { TodosCoordinator() }
    func todosItem() -> TabItem { TabItem(title: "Todos", icon: "list.bullet") }
}

@Test func theReadmeExampleWorks() throws {
    let app = ExampleApp()
    let engine = try NavigationEngine(root: app)
    try engine.transaction {
        try app.focus(\.todos).popToRoot().route(to: \.todo, "42")
    }
    #expect(engine.version == 1)
    #expect(engine.visiblePath == ["todos", "list", "todo"])
    try engine.perform([Step(.push(route: "todo", input: "7"))], from: "TodosCoordinator")
    #expect(engine.visiblePath == ["todos", "list", "todo", "todo"])
    let json = engine.stateDocument()
    let copy = try NavigationEngine(restoring: try JSONValue(parsing: json), root: ExampleApp())
    #expect(copy.stateDocument() == json)
}

// The README's "Results back to the caller, and route guards" example.

private struct ColourPicker: Screen, ProducesResult {
    typealias ResultValue = String
    func render() -> ScreenContent {
        ScreenContent(
            title: "Pick a colour",
            content: [
                .list(
                    ["red", "green"].map { ListRow(id: $0, title: $0, action: .step(.finish(result: .string($0)))) }),
                .button("Cancel", action: .step(.pop)),
            ])
    }
}

private final class ThemeCoordinator: NavigationCoordinatable {
    let stack = NavigationStack(initial: \ThemeCoordinator.home)
    var colour = "blue"
    var isAdmin = false
    @Root var home = makeHome
    @Route(.modal, onResult: picked) var pickColour = makePicker
    @Route(.push, guardedBy: adminOnly) var admin = makeAdmin
    @Route(.push) var login = makeLogin

    func makeHome() -> ScreenContent { ScreenContent(title: "Theme") }
    func makePicker() -> ColourPicker { ColourPicker() }
    func makeAdmin() -> ScreenContent { ScreenContent(title: "Admin") }
    func makeLogin() -> ScreenContent { ScreenContent(title: "Log in") }

    func picked(_ outcome: RouteOutcome<String>) {
        if case .finished(let value) = outcome { colour = value }
    }

    func adminOnly() -> RouteGuardDecision {
        isAdmin ? .allow : .redirect([Step(.push(route: "login"))])
    }
}

@Test func theReadmeResultAndGuardExampleWorks() throws {
    let theme = ThemeCoordinator()
    let engine = try NavigationEngine(root: theme)
    try theme.route(to: \.pickColour)
    try engine.perform([Step(.finish(result: "green"))])
    #expect(theme.colour == "green")
    #expect(engine.visiblePath == ["home"])
    var heard: [String] = []
    try theme.route(to: \.pickColour) { outcome in heard.append("\(outcome)") }
    try engine.dismissTopModal()
    #expect(heard == ["cancelled"])

    #expect(throws: NavigationError.self) { try theme.route(to: \.admin) }
    #expect(engine.visiblePath == ["home", "login"])
    #expect(engine.pendingRoute?.route == "admin")
    try engine.transaction {
        theme.isAdmin = true
        try theme.pop()
    }
    #expect(engine.visiblePath == ["home", "admin"])
}
