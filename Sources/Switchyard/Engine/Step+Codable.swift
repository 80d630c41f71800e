/// A step's JSON form: `{"action": …}` with the members of its operation, each written only when set.
extension Step: Codable {
    enum Member: String, CodingKey, CaseIterable {
        case action, route, input, animated, presentation, match, item, routes, title, message, actions, choice
        case result
    }

    /// Every member a step's JSON object may have (each action takes some of them: ``memberNames(of:)``).
    public static let memberNames = Member.allCases.map(\.rawValue)

    /// The members a step of `action` may have: `action`, `animated` and those of its operation. Any other member
    /// of a step (unless null) is refused (`unusedMember`).
    public static func memberNames(of action: Action) -> [String] {
        [Member.action, .animated].map(\.rawValue) + members(of: action).map(\.rawValue)
    }

    /// The members of `action`'s operation.
    static func members(of action: Action) -> [Member] {
        switch action {
        case .root, .route, .show, .push, .focusFirst, .addTab: [.route, .input]
        case .hasRoot, .isRoot, .focus, .selectTab: [.route]
        case .pushStack: [.routes]
        case .present: [.route, .input, .presentation]
        case .popTo: [.route, .match]
        case .popItem, .removeTab: [.item]
        case .finish: [.result]
        case .presentAlert: [.title, .message, .actions]
        case .respondToAlert: [.choice]
        case .pop, .popToRoot, .child, .dismiss, .dismissCoordinator, .back, .dismissModal: []
        }
    }

    /// Throws `unusedMember` for a member `action` does not take.
    private static func refuseUnused(_ member: Member, of action: Action) throws {
        let allowed = memberNames(of: action)
        throw NavigationError(
            code: "unusedMember", category: .invalidRequest,
            message: "action '\(action.rawValue)' takes no '\(member.rawValue)'; its members: "
                + allowed.joined(separator: ", "),
            choices: allowed)
    }

    /// The members of a step's JSON object, each decoded when present.
    struct Members {
        var route: String?
        var input: JSONValue?
        var animated: Bool?
        var presentation: Presentation?
        var match: StackMatch?
        var item: String?
        var routes: [RouteReference]?
        var title: String?
        var message: String?
        var actions: [AlertAction]?
        var choice: Int?
        var result: JSONValue?
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Member.self)
        let action = try Self.action(named: try container.decode(String.self, forKey: .action))
        let taken = Self.members(of: action) + [.action, .animated]
        for member in Member.allCases where !taken.contains(member) && container.contains(member) {
            if try !container.decodeNil(forKey: member) { try Self.refuseUnused(member, of: action) }
        }
        // Every member is type-checked, whether or not the action uses it (as the wire always did); then the
        // action takes the ones it needs.
        var members = Members()
        members.route = try container.decodeIfPresent(String.self, forKey: .route)
        members.input = try container.decodeIfPresent(JSONValue.self, forKey: .input)
        members.animated = try container.decodeIfPresent(Bool.self, forKey: .animated)
        members.presentation = try container.decodeIfPresent(Presentation.self, forKey: .presentation)
        members.match = try container.decodeIfPresent(StackMatch.self, forKey: .match)
        members.item = try container.decodeIfPresent(String.self, forKey: .item)
        members.routes = try container.decodeIfPresent([RouteReference].self, forKey: .routes)
        members.title = try container.decodeIfPresent(String.self, forKey: .title)
        members.message = try container.decodeIfPresent(String.self, forKey: .message)
        members.actions = try container.decodeIfPresent([AlertAction].self, forKey: .actions)
        members.choice = try container.decodeIfPresent(Int.self, forKey: .choice)
        members.result = try container.decodeIfPresent(JSONValue.self, forKey: .result)
        try self.init(action, members)
    }

    /// The step of a JSON object in one pass, without `Codable`, for the common shapes: nil when any member is not
    /// of its plain JSON type, when a member needs `Codable` (`presentation`, `match`, `routes`, `actions`), or when
    /// the step is wrong. Decoding such an object with `Codable` gives the same step or says what is wrong.
    public init?(plainJSON object: [String: JSONValue], besides others: Set<String> = []) {
        guard case .string(let name) = object["action"], let action = Action(rawValue: name) else { return nil }
        let taken = Self.memberNames(of: action)
        // A member the action does not take: Codable says which. `others` belong to the request around the step.
        guard object.allSatisfy({ taken.contains($0.key) || others.contains($0.key) || $0.value == .null }) else {
            return nil
        }
        func string(_ member: Member) -> String?? {
            switch object[member.rawValue] {
            case nil, .null?: .some(nil)
            case .string(let text)?: .some(text)
            default: nil
            }
        }
        var members = Members()
        guard let route = string(.route), let item = string(.item), let title = string(.title),
            let message = string(.message)
        else { return nil }
        (members.route, members.item, members.title, members.message) = (route, item, title, message)
        switch object["animated"] {
        case nil, .null?: break
        case .bool(let animated)?: members.animated = animated
        default: return nil
        }
        switch object["choice"] {
        case nil, .null?: break
        case .number(let number)?:
            guard let choice = Int(exactly: number) else { return nil }
            members.choice = choice
        default: return nil
        }
        for member in [Member.presentation, .match, .routes, .actions] where object[member.rawValue] ?? .null != .null {
            return nil
        }
        if let input = object["input"], input != .null { members.input = input }
        if let result = object["result"], result != .null { members.result = result }
        guard let step = try? Step(action, members) else { return nil }
        self = step
    }

    private static func action(named name: String) throws -> Action {
        guard let action = Action(rawValue: name) else {
            throw NavigationError(
                code: "unknownAction", category: .invalidRequest, message: "unknown action '\(name)'",
                choices: Action.allCases.map(\.rawValue))
        }
        return action
    }

    private init(_ action: Action, _ members: Members) throws {
        func needed<Value>(_ value: Value?, _ member: Member) throws -> Value {
            if let value { return value }
            throw NavigationError(
                code: "missingMember", category: .invalidRequest,
                message: "action '\(action.rawValue)' needs '\(member.rawValue)'")
        }
        let (route, input, item) = (members.route, members.input, members.item)
        animated = members.animated
        switch action {
        case .root: operation = .root(route: try needed(route, .route), input: input)
        case .hasRoot: operation = .hasRoot(route: try needed(route, .route))
        case .isRoot: operation = .isRoot(route: try needed(route, .route))
        case .route: operation = .route(route: try needed(route, .route), input: input)
        case .show: operation = .show(route: try needed(route, .route), input: input)
        case .push: operation = .push(route: try needed(route, .route), input: input)
        case .pushStack: operation = .pushStack(routes: try needed(members.routes, .routes))
        case .present:
            operation = .present(route: try needed(route, .route), input: input, presentation: members.presentation)
        case .pop: operation = .pop
        case .popItem: operation = .popItem(item: try needed(item, .item))
        case .popTo: operation = .popTo(route: try needed(route, .route), match: members.match)
        case .focusFirst: operation = .focusFirst(route: try needed(route, .route), input: input)
        case .focus: operation = .focus(route: try needed(route, .route))
        case .popToRoot: operation = .popToRoot
        case .child: operation = .child
        case .dismiss: operation = .dismiss
        case .dismissCoordinator: operation = .dismissCoordinator
        case .finish: operation = .finish(result: try needed(members.result, .result))
        case .addTab: operation = .addTab(route: try needed(route, .route), input: input)
        case .removeTab: operation = .removeTab(item: try needed(item, .item))
        case .presentAlert:
            operation = .presentAlert(
                title: try needed(members.title, .title), message: members.message, actions: members.actions)
        case .respondToAlert: operation = .respondToAlert(choice: try needed(members.choice, .choice))
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
        case .hasRoot(let route), .isRoot(let route), .focus(let route), .selectTab(let route):
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
        case .finish(let result):
            try container.encode(result, forKey: .result)
        case .pop, .popToRoot, .child, .dismiss, .dismissCoordinator, .back, .dismissModal:
            break
        }
        try container.encodeIfPresent(animated, forKey: .animated)
    }
}
