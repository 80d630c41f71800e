/// A step's JSON form: `{"action": …}` with the members of its operation, each written only when set.
extension Step: Codable {
    enum Member: String, CodingKey {
        case action, route, input, animated, presentation, match, item, routes, title, message, actions, choice
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Member.self)
        let name = try container.decode(String.self, forKey: .action)
        guard let action = Action(rawValue: name) else {
            throw NavigationError(
                code: "unknownAction", category: .invalidRequest, message: "unknown action '\(name)'",
                choices: Action.allCases.map(\.rawValue))
        }
        // Every member is type-checked, whether or not the action uses it (as the wire always did); then the
        // action takes the ones it needs.
        let route = try container.decodeIfPresent(String.self, forKey: .route)
        let input = try container.decodeIfPresent(JSONValue.self, forKey: .input)
        animated = try container.decodeIfPresent(Bool.self, forKey: .animated)
        let presentation = try container.decodeIfPresent(Presentation.self, forKey: .presentation)
        let match = try container.decodeIfPresent(StackMatch.self, forKey: .match)
        let item = try container.decodeIfPresent(String.self, forKey: .item)
        let routes = try container.decodeIfPresent([RouteReference].self, forKey: .routes)
        let title = try container.decodeIfPresent(String.self, forKey: .title)
        let message = try container.decodeIfPresent(String.self, forKey: .message)
        let actions = try container.decodeIfPresent([AlertAction].self, forKey: .actions)
        let choice = try container.decodeIfPresent(Int.self, forKey: .choice)
        func needed<Value>(_ value: Value?, _ member: Member) throws -> Value {
            if let value { return value }
            throw NavigationError(
                code: "missingMember", category: .invalidRequest,
                message: "action '\(action.rawValue)' needs '\(member.rawValue)'")
        }
        switch action {
        case .root: operation = .root(route: try needed(route, .route), input: input)
        case .hasRoot: operation = .hasRoot(route: try needed(route, .route))
        case .route: operation = .route(route: try needed(route, .route), input: input)
        case .show: operation = .show(route: try needed(route, .route), input: input)
        case .push: operation = .push(route: try needed(route, .route), input: input)
        case .pushStack: operation = .pushStack(routes: try needed(routes, .routes))
        case .present:
            operation = .present(route: try needed(route, .route), input: input, presentation: presentation)
        case .pop: operation = .pop
        case .popItem: operation = .popItem(item: try needed(item, .item))
        case .popTo: operation = .popTo(route: try needed(route, .route), match: match)
        case .focusFirst: operation = .focusFirst(route: try needed(route, .route), input: input)
        case .focus: operation = .focus(route: try needed(route, .route))
        case .popToRoot: operation = .popToRoot
        case .child: operation = .child
        case .dismiss: operation = .dismiss
        case .dismissCoordinator: operation = .dismissCoordinator
        case .addTab: operation = .addTab(route: try needed(route, .route), input: input)
        case .removeTab: operation = .removeTab(item: try needed(item, .item))
        case .presentAlert:
            operation = .presentAlert(title: try needed(title, .title), message: message, actions: actions)
        case .respondToAlert: operation = .respondToAlert(choice: try needed(choice, .choice))
        case .back: operation = .back
        case .dismissModal: operation = .dismissModal
        case .selectTab: operation = .selectTab(route: try needed(route, .route))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Member.self)
        try container.encode(action.rawValue, forKey: .action)
        switch operation {
        case .root(let route, let input), .route(let route, let input), .show(let route, let input),
            .push(let route, let input), .focusFirst(let route, let input), .addTab(let route, let input):
            try container.encode(route, forKey: .route)
            try container.encodeIfPresent(input, forKey: .input)
        case .hasRoot(let route), .focus(let route), .selectTab(let route):
            try container.encode(route, forKey: .route)
        case .pushStack(let routes):
            try container.encode(routes, forKey: .routes)
        case .present(let route, let input, let presentation):
            try container.encode(route, forKey: .route)
            try container.encodeIfPresent(input, forKey: .input)
            try container.encodeIfPresent(presentation, forKey: .presentation)
        case .popItem(let item), .removeTab(let item):
            try container.encode(item, forKey: .item)
        case .popTo(let route, let match):
            try container.encode(route, forKey: .route)
            try container.encodeIfPresent(match, forKey: .match)
        case .presentAlert(let title, let message, let actions):
            try container.encode(title, forKey: .title)
            try container.encodeIfPresent(message, forKey: .message)
            try container.encodeIfPresent(actions, forKey: .actions)
        case .respondToAlert(let choice):
            try container.encode(choice, forKey: .choice)
        case .pop, .popToRoot, .child, .dismiss, .dismissCoordinator, .back, .dismissModal:
            break
        }
        try container.encodeIfPresent(animated, forKey: .animated)
    }
}
