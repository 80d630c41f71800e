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
