/// What a control does when used: a transition relative to the coordinator owning the screen, a flow event, or a
/// deep link.
public enum ScreenAction: Sendable, Hashable {
    /// A chain of steps, applied starting at the coordinator that owns the screen.
    case transition([Step])
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
}
