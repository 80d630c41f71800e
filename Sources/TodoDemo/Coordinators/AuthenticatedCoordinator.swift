import Switchyard

/// The logged-in user's tabs. Tapping the selected tab pops it to its root.
final class AuthenticatedCoordinator: TabCoordinatable {
    let tabs = TabNavigation(
        \AuthenticatedCoordinator.home, \AuthenticatedCoordinator.todos, \AuthenticatedCoordinator.settings,
        \AuthenticatedCoordinator.profile)
    let user: String
    let store: TodoStore

    @TabRoute(item: homeItem) var home = makeHome
    @TabRoute(item: todosItem) var todos = makeTodos
    @TabRoute(item: settingsItem) var settings = makeSettings
    @TabRoute(item: profileItem) var profile = makeProfile

    init(user: String, store: TodoStore) {
        self.user = user
        self.store = store
    }

    func makeHome() -> HomeCoordinator { HomeCoordinator(store: store) }
    func makeTodos() -> TodosCoordinator { TodosCoordinator(store: store) }
    func makeSettings() -> SettingsCoordinator { SettingsCoordinator() }
    func makeProfile() -> ScreenContent {
        ScreenContent(
            title: "Profile",
            content: [
                .image(systemName: "person.circle", color: "#8e8e93"),
                .text(user, style: .title),
                .button("Log out", role: .destructive, action: .event("logout")),
            ])
    }

    func homeItem() -> TabItem {
        let count = store.favourites.count
        return TabItem(title: "Home", icon: "house", badge: count > 0 ? String(count) : nil)
    }
    func todosItem() -> TabItem { TabItem(title: "Todos", icon: "list.bullet") }
    func settingsItem() -> TabItem { TabItem(title: "Settings", icon: "gear") }
    func profileItem() -> TabItem { TabItem(title: "Profile", icon: "person") }

    func didReselectTab(_ route: String) throws {
        switch route {
        case "home": try focus(\.home).popToRoot()
        case "todos": try focus(\.todos).popToRoot()
        case "settings": try focus(\.settings).popToRoot()
        default: break
        }
    }

    func handle(_ event: FlowEvent) throws -> Bool {
        guard event.name == "toggleFavourite" else { return false }
        // The event bubbled up from the todos tab; tell the home tab, which refreshes its favourites.
        guard let home = router(HomeCoordinator.self) else { return false }
        home.favouritesChanged()
        return true
    }
}
