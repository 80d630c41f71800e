/// One step of a chain: an engine operation addressed by name, as the server receives it in JSON.
///
/// `{"action":"push","route":"todo","input":"42"}`. Members an action does not use are ignored.
public struct Step: Sendable, Hashable {
    /// Every operation a step can name.
    public enum Action: String, Sendable, Hashable, CaseIterable, Codable {
        case root, hasRoot, route, show, push, pushStack, present, pop, popItem, popTo, focusFirst, focus, popToRoot
        case child, dismiss, dismissCoordinator, addTab, removeTab, presentAlert, respondToAlert
        case back, dismissModal, selectTab
    }

    /// The operation.
    public var action: Action
    /// The route name, for actions that take one.
    public var route: String?
    /// The route input as JSON; nil when absent.
    public var input: JSONValue?
    /// Whether a renderer should animate the change (default true).
    public var animated: Bool?
    /// `modal` or `fullScreen`, for `present` (default: the route's declared style, else modal).
    public var presentation: Presentation?
    /// `last` (default) or `first`, for `popTo`.
    public var match: StackMatch?
    /// An item id, for `popItem` and `removeTab`.
    public var item: String?
    /// Routes to push, for `pushStack`.
    public var routes: [RouteReference]?
    /// Alert title and message, for `presentAlert`.
    public var title: String?
    /// Alert message, for `presentAlert`.
    public var message: String?
    /// Alert actions, for `presentAlert`.
    public var actions: [AlertAction]?
    /// The index of the alert action chosen, for `respondToAlert`.
    public var choice: Int?

    /// Creates a step.
    public init(
        _ action: Action, route: String? = nil, input: JSONValue? = nil, animated: Bool? = nil,
        presentation: Presentation? = nil, match: StackMatch? = nil, item: String? = nil,
        routes: [RouteReference]? = nil, title: String? = nil, message: String? = nil,
        actions: [AlertAction]? = nil, choice: Int? = nil
    ) {
        self.action = action
        self.route = route
        self.input = input
        self.animated = animated
        self.presentation = presentation
        self.match = match
        self.item = item
        self.routes = routes
        self.title = title
        self.message = message
        self.actions = actions
        self.choice = choice
    }

    /// A route name with its input, for `pushStack`.
    public struct RouteReference: Sendable, Hashable, Codable {
        /// The route name.
        public var route: String
        /// The input, if the route takes one.
        public var input: JSONValue?

        /// Creates a reference.
        public init(route: String, input: JSONValue? = nil) {
            self.route = route
            self.input = input
        }
    }
}

/// Which occurrence of a route `pop(to:)` returns to when the stack holds it more than once.
public enum StackMatch: String, Sendable, Hashable, Codable, CaseIterable {
    /// The occurrence nearest the top (Jumper's behaviour; the default).
    case last
    /// The occurrence nearest the root (Stinsen's `focusFirst`).
    case first
}

extension Step: Codable {
    private enum CodingKeys: String, CodingKey {
        case action, route, input, animated, presentation, match, item, routes, title, message, actions, choice
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .action)
        guard let action = Action(rawValue: name) else {
            throw NavigationError(
                code: "unknownAction", category: .invalidRequest, message: "unknown action '\(name)'",
                choices: Action.allCases.map(\.rawValue))
        }
        self.action = action
        route = try container.decodeIfPresent(String.self, forKey: .route)
        input = try container.decodeIfPresent(JSONValue.self, forKey: .input)
        animated = try container.decodeIfPresent(Bool.self, forKey: .animated)
        presentation = try container.decodeIfPresent(Presentation.self, forKey: .presentation)
        match = try container.decodeIfPresent(StackMatch.self, forKey: .match)
        item = try container.decodeIfPresent(String.self, forKey: .item)
        routes = try container.decodeIfPresent([RouteReference].self, forKey: .routes)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        message = try container.decodeIfPresent(String.self, forKey: .message)
        actions = try container.decodeIfPresent([AlertAction].self, forKey: .actions)
        choice = try container.decodeIfPresent(Int.self, forKey: .choice)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(action.rawValue, forKey: .action)
        try container.encodeIfPresent(route, forKey: .route)
        try container.encodeIfPresent(input, forKey: .input)
        try container.encodeIfPresent(animated, forKey: .animated)
        try container.encodeIfPresent(presentation, forKey: .presentation)
        try container.encodeIfPresent(match, forKey: .match)
        try container.encodeIfPresent(item, forKey: .item)
        try container.encodeIfPresent(routes, forKey: .routes)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(message, forKey: .message)
        try container.encodeIfPresent(actions, forKey: .actions)
        try container.encodeIfPresent(choice, forKey: .choice)
    }
}
