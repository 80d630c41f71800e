import Switchyard

/// The home tab: the favourites. Tapping one runs Stinsen's chain: focus the todos tab, pop it to its root, push the todo.
final class HomeCoordinator: NavigationCoordinatable, PersistentCoordinator {
    let stack = NavigationStack(initial: \HomeCoordinator.favourites)
    let store: TodoStore
    /// How many times the favourites changed while this tab existed (shown on the screen).
    private(set) var refreshes = 0

    @Root var favourites = makeFavourites
    /// A sheet that gives a todo id back: `pickedFavourite` marks it.
    @Route(.modal, onResult: pickedFavourite) var pickFavourite = makePickFavourite

    /// The refresh count is this tab's own data.
    var persistentState: Int {
        get { refreshes }
        set { refreshes = newValue }
    }

    init(store: TodoStore) { self.store = store }

    func makeFavourites() -> FavouritesScreen { FavouritesScreen(home: self) }
    func makePickFavourite() -> PickFavouriteScreen { PickFavouriteScreen(store: store) }

    /// The pick sheet's outcome: the picked todo becomes a favourite; a cancelled pick changes nothing. An id that
    /// is not a todo is refused (422), and the sheet stays.
    func pickedFavourite(_ outcome: RouteOutcome<String>) throws {
        guard case .finished(let id) = outcome else { return }
        guard store.setFavourite(id, true) else {
            throw NavigationError(
                code: "unknownTodo", category: .invalidInput, message: "there is no todo '\(id)' to mark",
                choices: store.todos.map(\.id))
        }
    }

    /// Called when a todo's favourite flag changed elsewhere.
    func favouritesChanged() { refreshes += 1 }

    static let events = [
        FlowEventDeclaration(
            "openTodo", payload: ["type": "object", "properties": ["id": ["type": "string"]], "required": ["id"]],
            summary: "Show a todo in the Todos tab.")
    ]

    func handle(_ event: FlowEvent) throws -> Bool {
        guard event.name == "openTodo", let id = event.payload["id"]?.stringValue else { return false }
        guard let tabs = router(AuthenticatedCoordinator.self) else { return false }
        try tabs.focusFirst(\.todos).popToRoot().route(to: \.todo, id)
        return true
    }
}

/// The favourites list, rendered from the store each time it is read.
struct FavouritesScreen: Screen {
    let home: HomeCoordinator

    /// Both counts only grow (a restore may set them back, but a restore drops the kept renderings): their sum
    /// changes whenever either does.
    var contentRevision: Int? { home.store.revision + home.refreshes }

    func render() -> ScreenContent {
        let favourites = home.store.favourites
        var content: [ScreenElement] = [.text("Favourites", style: .headline)]
        if favourites.isEmpty {
            content.append(.text("No favourites yet: star a todo in the Todos tab.", style: .caption))
        } else {
            content.append(
                .list(
                    favourites.map { todo in
                        ListRow(
                            id: todo.id, title: todo.name, icon: "star.fill",
                            action: .event("openTodo", payload: ["id": .string(todo.id)]))
                    }))
        }
        content.append(.button("Pick a favourite", role: .secondary, action: .route(\HomeCoordinator.pickFavourite)))
        if home.refreshes > 0 {
            content.append(.text("Updated \(home.refreshes) time(s) while you were away.", style: .caption))
        }
        return ScreenContent(title: "Home", content: content)
    }
}
