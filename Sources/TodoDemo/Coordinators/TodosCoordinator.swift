import Foundation
import Switchyard

/// The todos tab: the list, a todo (pushed), and the create flow (a modal coordinator).
final class TodosCoordinator: NavigationCoordinatable {
    let stack = NavigationStack(initial: \TodosCoordinator.list)
    let store: TodoStore

    @Root var list = makeList
    @Route(.push) var todo = makeTodo
    @Route(.modal) var create = makeCreate

    init(store: TodoStore) { self.store = store }

    func makeList() -> TodoListScreen { TodoListScreen(store: store) }
    func makeTodo(id: String) -> TodoScreen { TodoScreen(store: store, id: id) }
    func makeCreate() -> CreateTodoCoordinator { CreateTodoCoordinator() }

    static let events = [
        FlowEventDeclaration(
            "toggleFavourite",
            payload: ["type": "object", "properties": ["id": ["type": "string"]], "required": ["id"]],
            fields: ["favourite"], summary: "Mark a todo as a favourite or not."),
        FlowEventDeclaration("create", fields: ["name"], summary: "Create a todo with the name typed."),
    ]

    func handle(_ event: FlowEvent) throws -> Bool {
        switch event.name {
        case "toggleFavourite":
            guard let id = event.payload["id"]?.stringValue, let todo = store.todo(id) else { return false }
            let value = event.fields["favourite"].map { $0 == "true" } ?? !todo.favourite
            store.setFavourite(id, value)
            return false  // keep bubbling: the tabs tell the home tab
        case "create":
            let name = (event.fields["name"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty else {
                throw NavigationError(
                    code: "emptyName", category: .invalidInput, message: "A todo needs a name")
            }
            // Checked before the store changes: the store is not part of the transaction's rollback.
            guard name.count <= TodoStore.maxNameCharacters else {
                throw NavigationError(
                    code: "nameTooLong", category: .invalidInput,
                    message: "A todo name has at most \(TodoStore.maxNameCharacters) characters")
            }
            guard store.todos.count < TodoStore.maxTodos else {
                throw NavigationError(
                    code: "tooManyTodos", category: .conflict,
                    message: "This session already holds \(TodoStore.maxTodos) todos, the most it keeps")
            }
            store.add(name: name)
            try router(CreateTodoCoordinator.self)?.dismissCoordinator()
            return true
        default:
            return false
        }
    }
}

/// The list of todos, from the store as it is now.
struct TodoListScreen: Screen {
    let store: TodoStore

    var contentRevision: Int? { store.revision }

    func render() -> ScreenContent {
        ScreenContent(
            title: "Todos",
            content: [
                .list(
                    store.todos.map { todo in
                        ListRow(
                            id: todo.id, title: todo.name, icon: todo.favourite ? "star.fill" : "circle",
                            action: .push(\TodosCoordinator.todo, todo.id))
                    }),
                .button("New todo", action: .route(\TodosCoordinator.create)),
            ])
    }
}

/// One todo with its favourite switch.
struct TodoScreen: Screen {
    let store: TodoStore
    let id: String

    var contentRevision: Int? { store.revision }

    func render() -> ScreenContent {
        guard let todo = store.todo(id) else {
            return ScreenContent(title: "Not found", content: [.text("There is no todo '\(id)'.")])
        }
        return ScreenContent(
            title: todo.name,
            content: [
                .text(todo.name, style: .title),
                .text("id: \(todo.id)", style: .caption),
                .toggle(
                    id: "favourite", title: "Favourite", isOn: todo.favourite,
                    action: .event("toggleFavourite", payload: ["id": .string(todo.id)], fields: ["favourite"])),
            ])
    }
}
