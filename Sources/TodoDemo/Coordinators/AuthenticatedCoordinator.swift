import Switchyard

/// The logged-in user's tabs. Tapping the selected tab pops it to its root.
final class AuthenticatedCoordinator: TabCoordinatable, PersistentCoordinator {
    let tabs = TabNavigation(
        \AuthenticatedCoordinator.home, \AuthenticatedCoordinator.todos, \AuthenticatedCoordinator.settings,
        \AuthenticatedCoordinator.profile)
    let user: String
    let store: TodoStore
    /// The switch on Profile: the Settings testbed's admin screen is guarded by it.
    private(set) var adminMode = false

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
    func makeProfile() -> ProfileScreen { ProfileScreen(tabs: self) }

    /// The admin switch is this coordinator's own data, saved with the session.
    var persistentState: Bool {
        get { adminMode }
        set { adminMode = newValue }
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

    static let events = [
        FlowEventDeclaration("setAdminMode", fields: ["adminMode"], summary: "Turn the admin switch on or off."),
        FlowEventDeclaration(
            "toggleFavourite",
            payload: ["type": "object", "properties": ["id": ["type": "string"]], "required": ["id"]],
            summary: "Mark a todo as a favourite or not, from any tab."),
    ]

    func handle(_ event: FlowEvent) throws -> Bool {
        if event.name == "setAdminMode" {
            // A pending admin screen opens in the change after this one, once its guard allows it.
            adminMode = event.fields["adminMode"].map { $0 == "true" } ?? !adminMode
            return true
        }
        guard event.name == "toggleFavourite" else { return false }
        // The event bubbled up from the todos tab; tell the home tab, which refreshes its favourites.
        guard let home = router(HomeCoordinator.self) else { return false }
        home.favouritesChanged()
        return true
    }
}
