import Switchyard

/// A sheet listing the todos that are not favourites yet; tapping one finishes the sheet with its id, which Home
/// receives (``HomeCoordinator/pickedFavourite(_:)``).
struct PickFavouriteScreen: Screen, ProducesResult {
    /// A todo id.
    typealias ResultValue = String

    let store: TodoStore

    var contentRevision: Int? { store.revision }

    func render() -> ScreenContent {
        let candidates = store.todos.filter { !$0.favourite }
        var content: [ScreenElement] = [.text("Pick a todo to mark as a favourite.", style: .caption)]
        if candidates.isEmpty {
            content.append(.text("Every todo is a favourite already.", style: .body))
        } else {
            content.append(
                .list(
                    candidates.map { todo in
                        ListRow(
                            id: todo.id, title: todo.name, icon: "star",
                            action: .step(.finish(result: .string(todo.id))))
                    }))
        }
        content.append(.button("Cancel", role: .secondary, action: .step(.pop)))
        return ScreenContent(title: "Pick a favourite", content: content)
    }
}
