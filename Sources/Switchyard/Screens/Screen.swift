/// A screen: the server-side description of one page a route shows.
///
/// A route's factory returns either a child coordinator or a screen. The engine keeps the screen object for as long as
/// its item is in the tree and calls ``render()`` every time the state is read, so a list screen shows today's list,
/// not the list of the moment it was pushed.
///
/// ```swift
/// struct TodoListScreen: Screen {
///     let store: TodoStore
///     func render() -> ScreenContent {
///         ScreenContent(title: "Todos", content: [
///             .list(store.todos.map { ListRow(id: $0.id, title: $0.name, action: .push("todo", input: $0.id)) })
///         ])
///     }
/// }
/// ```
public protocol Screen {
    /// Describes the screen from current data.
    func render() -> ScreenContent
}

extension ScreenContent: Screen {
    /// A fixed description is its own screen.
    public func render() -> ScreenContent { self }
}
