/// What a control does when used: a transition relative to the coordinator owning the screen, a flow event, or a
/// deep link.
///
/// Prefer the typed forms, which the compiler checks: `.push(\TodosCoordinator.todo, todo.id)` names a route
/// that exists and gives it the input it takes, where `.push("todo", input: .string(todo.id))` is a string the
/// server meets only when the control is used (`check` reports names it cannot find in the screens it can render).
public enum ScreenAction: Sendable, Hashable {
    /// A chain of steps, applied starting at the coordinator that owns the screen.
    case transition([Step])
    /// A route named by key path (see ``RouteAction``): written as a one-step transition of the coordinator the
    /// route belongs to.
    case open(RouteAction)
    /// A flow event sent from the screen's item: its owner handles it first, then each parent.
    /// `fields` names text fields (or toggles) of the same screen whose current values the client sends along.
    case event(_ name: String, payload: JSONValue = .null, fields: [String] = [])
    /// A deep link opened through the app's router, as `POST /api/sessions/{id}/deeplinks` opens it (a link the
    /// router keeps pending opens later): an in-app link to a place the app knows by URL.
    case deepLink(_ url: String)

    /// A transition that routes to `route` with its declared presentation.
    public static func route(_ route: String, input: JSONValue? = nil) -> ScreenAction {
        .transition([Step(.route(route: route, input: input))])
    }

    /// A transition that pushes `route`.
    public static func push(_ route: String, input: JSONValue? = nil) -> ScreenAction {
        .transition([Step(.push(route: route, input: input))])
    }

    /// A transition made of one step (e.g. `.step(.pop)`).
    public static func step(_ operation: Step.Operation) -> ScreenAction {
        .transition([Step(operation)])
    }

    /// Routes to `route` of coordinator `Owner` with its declared presentation.
    public static func route<Owner: Coordinatable, Output>(
        _ route: KeyPath<Owner, Transition<Owner, Void, Output>>
    ) -> ScreenAction {
        .open(RouteAction(.route, route, input: nil))
    }

    /// Routes to `route` of coordinator `Owner`, made with `input`, with its declared presentation.
    public static func route<Owner: Coordinatable, Input: Codable & Sendable, Output>(
        _ route: KeyPath<Owner, Transition<Owner, Input, Output>>, _ input: Input
    ) -> ScreenAction {
        .open(RouteAction(.route, route, input: RouteAction.encoded(input)))
    }

    /// Pushes `route` of coordinator `Owner`.
    public static func push<Owner: Coordinatable, Output>(
        _ route: KeyPath<Owner, Transition<Owner, Void, Output>>
    ) -> ScreenAction {
        .open(RouteAction(.push, route, input: nil))
    }

    /// Pushes `route` of coordinator `Owner`, made with `input`.
    public static func push<Owner: Coordinatable, Input: Codable & Sendable, Output>(
        _ route: KeyPath<Owner, Transition<Owner, Input, Output>>, _ input: Input
    ) -> ScreenAction {
        .open(RouteAction(.push, route, input: RouteAction.encoded(input)))
    }

    /// Presents `route` of coordinator `Owner` (as `presentation`, or as declared).
    public static func present<Owner: Coordinatable, Output>(
        _ route: KeyPath<Owner, Transition<Owner, Void, Output>>, presentation: Presentation? = nil
    ) -> ScreenAction {
        .open(RouteAction(.present(presentation), route, input: nil))
    }

    /// Presents `route` of coordinator `Owner`, made with `input` (as `presentation`, or as declared).
    public static func present<Owner: Coordinatable, Input: Codable & Sendable, Output>(
        _ route: KeyPath<Owner, Transition<Owner, Input, Output>>, _ input: Input, presentation: Presentation? = nil
    ) -> ScreenAction {
        .open(RouteAction(.present(presentation), route, input: RouteAction.encoded(input)))
    }
}
