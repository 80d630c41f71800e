import Switchyard

extension AppCoordinator {
    /// The demo's deep links: Jumper's (`jumper://io.idevs/…`) and Stinsen's (`stinsenapp://todo/…`, web links).
    /// A link opened while logged out is kept and completed right after login.
    public static let deepLinks = DeepLinkRouter<AppCoordinator>()
        .route("jumper://io.idevs/home", examples: ["jumper://io.idevs/home"]) { app, _ in
            guard let tabs = app.hasRoot(\.authenticated) else { return .pending }
            try tabs.focus(\.home)
            return .opened
        }
        .route("jumper://io.idevs/settings", examples: ["jumper://io.idevs/settings"]) { app, _ in
            guard let tabs = app.hasRoot(\.authenticated) else { return .pending }
            try tabs.focus(\.settings)
            return .opened
        }
        .route("jumper://io.idevs/todo/:id", examples: ["jumper://io.idevs/todo/buy-milk"]) { app, link in
            let id = try app.existingTodo(link)
            guard let tabs = app.hasRoot(\.authenticated) else { return .pending }
            try tabs.focus(\.todos).present(\.todo, id)
            return .opened
        }
        .route("stinsenapp://todo/:id", examples: ["stinsenapp://todo/hello-world"]) { app, link in
            try app.openStinsenStyle(link)
        }
        .route("http|https://*/todo/:id", examples: ["https://example.com/todo/write-docs"]) { app, link in
            try app.openStinsenStyle(link)
        }

    /// Stinsen's deep link: focus todos, pop to root, push the todo.
    func openStinsenStyle(_ link: DeepLink) throws -> DeepLinkResult {
        let id = try existingTodo(link)
        guard let tabs = hasRoot(\.authenticated) else { return .pending }
        try tabs.focusFirst(\.todos).popToRoot().route(to: \.todo, id)
        return .opened
    }

    /// The link's todo id, if the todo exists.
    func existingTodo(_ link: DeepLink) throws -> String {
        let id = try link.string("id")
        guard store.todo(id) != nil else {
            throw NavigationError.deepLinkUnresolved(link.url, reason: "there is no todo '\(id)'")
        }
        return id
    }
}

extension TodoDemo {
    /// The demo as an app the server can host.
    public static let app = NavigationApp(
        name: "todo", root: { AppCoordinator() }, deepLinks: AppCoordinator.deepLinks)
}

/// The demo app: ordinary user code of the Switchyard engine.
public enum TodoDemo {}
