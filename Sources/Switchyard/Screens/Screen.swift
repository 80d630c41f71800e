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
///             .list(store.todos.map { ListRow(id: $0.id, title: $0.name, action: .push(\TodosCoordinator.todo, $0.id)) })
///         ])
///     }
/// }
/// ```
public protocol Screen {
    /// Describes the screen from current data.
    func render() -> ScreenContent

    /// A number that changes whenever ``render()`` would describe something else, or nil (the default) when the
    /// screen cannot tell.
    ///
    /// An engine that keeps renderings (``NavigationEngine/screenRenderings``, as the server's sessions do) does
    /// not call ``render()`` again while this number is the one it saw last: it reuses the JSON it wrote then.
    /// Without a revision the screen is rendered and written for every document. Give the revision only when it
    /// truly covers everything ``render()`` reads: a revision that stays the same while the data changed shows
    /// stale data. A data store that counts up on every change (and on every undo) is the usual source; a screen
    /// that reads only fixed values (its route's input, text) can return a constant.
    ///
    /// ```swift
    /// struct TodoListScreen: Screen {
    ///     let store: TodoStore  // `revision` counts every change to the todos
    ///     var contentRevision: Int? { store.revision }
    ///     func render() -> ScreenContent { … }
    /// }
    /// ```
    var contentRevision: Int? { get }
}

extension Screen {
    /// No revision: the screen is rendered for every document.
    public var contentRevision: Int? { nil }
}

extension ScreenContent: Screen {
    /// A fixed description is its own screen.
    public func render() -> ScreenContent { self }

    /// A fixed description never changes.
    public var contentRevision: Int? { 0 }
}
