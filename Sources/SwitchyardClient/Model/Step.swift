import SwitchyardJSON

/// One step of a transition (docs/state-document.md, "Steps"): what to do to a coordinator. Steps chain: each applies
/// to the coordinator the one before returned.
///
/// ```swift
/// try queue.send(.transition([.popToRoot, .push("todo", input: "buy-milk")], coordinator: "TodosCoordinator"))
/// ```
public struct Step: Decodable, Sendable, Equatable {
    /// The step as the API takes it (`{"action": "push", "route": "todo", "input": "42"}`).
    public let json: JSONValue

    /// The step `action` with its `members`; `animated: false` is sent only when asked for.
    public init(_ action: String, _ members: [String: JSONValue] = [:], animated: Bool = true) {
        var object = members
        object["action"] = .string(action)
        if !animated { object["animated"] = false }
        json = .object(object)
    }

    private static func route(_ action: String, _ route: String, input: JSONValue?) -> Step {
        var members: [String: JSONValue] = ["route": .string(route)]
        if let input { members["input"] = input }
        return Step(action, members)
    }

    /// Push `route` (navigation coordinators).
    public static func push(_ route: String, input: JSONValue? = nil) -> Step {
        Self.route("push", route, input: input)
    }
    /// Present `route` as a sheet (`.modal`) or cover (`.fullScreen`).
    public static func present(_ route: String, input: JSONValue? = nil, as presentation: Presentation = .modal) -> Step
    {
        var step = Self.route("present", route, input: input).json.objectValue ?? [:]
        step["presentation"] = .string(presentation.rawValue)
        return Step(json: .object(step))
    }
    /// Open `route` the way it is declared.
    public static func route(_ route: String, input: JSONValue? = nil) -> Step {
        Self.route("route", route, input: input)
    }
    /// Let the container decide: push, add a tab or switch the root.
    public static func show(_ route: String, input: JSONValue? = nil) -> Step {
        Self.route("show", route, input: input)
    }
    /// Switch the root to `route`.
    public static func root(_ route: String, input: JSONValue? = nil) -> Step {
        Self.route("root", route, input: input)
    }
    /// Select the tab `route`.
    public static func focus(_ route: String) -> Step { Step("focus", ["route": .string(route)]) }
    /// Pop the top item.
    public static let pop = Step("pop")
    /// Clear the stack.
    public static let popToRoot = Step("popToRoot")
    /// Pop to the last item with `route`.
    public static func popTo(_ route: String) -> Step { Step("popTo", ["route": .string(route)]) }
    /// Remove the item `item` (an entry id such as `i9`) and all above it.
    public static func popItem(_ item: String) -> Step { Step("popItem", ["item": .string(item)]) }
    /// Dismiss this coordinator's presentation layer or, at the base of what is shown (a tab's content, a root
    /// content, the root), the topmost sheet or cover of its own stack.
    public static let dismiss = Step("dismiss")
    /// Move the chain into the current root's or selected tab's coordinator.
    public static let child = Step("child")
    /// End what the coordinator shows on top and give `result` to whoever opened it.
    public static func finish(result: JSONValue) -> Step { Step("finish", ["result": result]) }
    /// Answer the alert with the action at `choice`.
    public static func respondToAlert(choice: Int) -> Step {
        Step("respondToAlert", ["choice": .number(Double(choice))])
    }
    /// The user's Back: pop the visible item.
    public static let back = Step("back")
    /// The user's swipe down on the top-most sheet.
    public static let dismissModal = Step("dismissModal")
    /// The user's tap on the tab `route`.
    public static func selectTab(_ route: String) -> Step { Step("selectTab", ["route": .string(route)]) }

    /// A step from its JSON as the API takes it.
    public init(json: JSONValue) { self.json = json }

    public init(from decoder: any Decoder) throws {
        json = try JSONValue(from: decoder)
    }
}
