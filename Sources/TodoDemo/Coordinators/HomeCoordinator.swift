import Switchyard

/// The home tab: the favourites. Tapping one runs Stinsen's chain: focus the todos tab, pop it to its root, push the todo.
final class HomeCoordinator: NavigationCoordinatable, PersistentCoordinator {
    let stack = NavigationStack(initial: \HomeCoordinator.favourites)
    let store: TodoStore
    /// How many times the favourites changed while this tab existed (shown on the screen).
    private(set) var refreshes = 0

    @Root var favourites = makeFavourites

    /// The refresh count is this tab's own data.
    var persistentState: Int {
        get { refreshes }
        set { refreshes = newValue }
    }

    init(store: TodoStore) { self.store = store }

    func makeFavourites() -> FavouritesScreen { FavouritesScreen(home: self) }

    /// Called when a todo's favourite flag changed elsewhere.
    func favouritesChanged() { refreshes += 1 }

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
        if home.refreshes > 0 {
            content.append(.text("Updated \(home.refreshes) time(s) while you were away.", style: .caption))
        }
        return ScreenContent(title: "Home", content: content)
    }
}
