/// One step of a chain: an engine operation addressed by name, as the server receives it in JSON.
///
/// `{"action":"push","route":"todo","input":"42"}`. The ``operation`` holds exactly the members its action uses, so
/// the compiler lists every place a new action must be handled; a member an action does not take is refused when
/// decoding (`unusedMember`), and so is a member it needs but lacks (`missingMember`), before anything runs.
///
/// ```swift
/// Step(.push(route: "todo", input: "42"))
/// Step(.pop, animated: false)
/// ```
public struct Step: Sendable, Hashable {
    /// What the step does, with the members it needs.
    public var operation: Operation
    /// Whether a renderer should animate the change (nil: the default, true).
    public var animated: Bool?

    /// Creates a step.
    public init(_ operation: Operation, animated: Bool? = nil) {
        self.operation = operation
        self.animated = animated
    }

    /// Every operation a step can name, with the members each uses.
    public enum Operation: Sendable, Hashable {
        /// Switch the root (root and navigation kinds).
        case root(route: String, input: JSONValue? = nil)
        /// Assert the current root and continue in its coordinator.
        case hasRoot(route: String)
        /// Assert the current root (a screen or a coordinator) and continue here: Jumper's and Stinsen's `isRoot`.
        case isRoot(route: String)
        /// Use the route's declared presentation.
        case route(route: String, input: JSONValue? = nil)
        /// Let the container decide: push, add a tab or switch the root.
        case show(route: String, input: JSONValue? = nil)
        /// Push (navigation).
        case push(route: String, input: JSONValue? = nil)
        /// Push several routes; only the last animates.
        case pushStack(routes: [RouteReference])
        /// Present modally (`modal` or `fullScreen`; default: the route's declared style, else modal).
        case present(route: String, input: JSONValue? = nil, presentation: Presentation? = nil)
        /// Remove the top item of this stack.
        case pop
        /// Remove an item (by id, `i4`) and everything above it.
        case popItem(item: String)
        /// Pop to the last (default) or first item with that route.
        case popTo(route: String, match: StackMatch? = nil)
        /// Navigation: pop to the first item with that route; tab: select the first tab with that route.
        case focusFirst(route: String, input: JSONValue? = nil)
        /// Select a tab.
        case focus(route: String)
        /// Clear the stack.
        case popToRoot
        /// Move the chain into the current root's or selected tab's coordinator.
        case child
        /// Dismiss this coordinator's presentation or, at the base of what is shown (a tab's content, a root
        /// content, the root), the topmost sheet or cover of its own stack.
        case dismiss
        /// Remove this coordinator's item and everything above it in its parent.
        case dismissCoordinator
        /// End what this coordinator shows on top (its top stack item, else itself) with a result for its opener.
        case finish(result: JSONValue)
        /// Add a tab at run time.
        case addTab(route: String, input: JSONValue? = nil)
        /// Remove a tab (by item id) at run time.
        case removeTab(item: String)
        /// Show an alert.
        case presentAlert(title: String, message: String? = nil, actions: [AlertAction]? = nil)
        /// Answer the alert with the action at `choice`.
        case respondToAlert(choice: Int)
        /// The user's back gesture.
        case back
        /// The user's swipe-down on the top-most modal.
        case dismissModal
        /// The user's tap on a tab.
        case selectTab(route: String)
    }

    /// Every action name a step can carry (the `action` member); ``WireVocabulary/actions`` lists them.
    public enum Action: String, Sendable, Hashable, CaseIterable, Codable {
        case root, hasRoot, isRoot, route, show, push, pushStack, present, pop, popItem, popTo, focusFirst, focus
        case popToRoot
        case child, dismiss, dismissCoordinator, finish, addTab, removeTab, presentAlert, respondToAlert
        case back, dismissModal, selectTab
    }

    /// The action this step names.
    public var action: Action { operation.action }

    /// A route name with its input, for `pushStack`.
    public struct RouteReference: Sendable, Hashable, Codable {
        /// The members of its JSON object.
        public static let memberNames = ["route", "input"]

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

extension Step.Operation {
    /// The action this operation is named by on the wire.
    public var action: Step.Action {
        switch self {
        case .root: .root
        case .hasRoot: .hasRoot
        case .isRoot: .isRoot
        case .route: .route
        case .show: .show
        case .push: .push
        case .pushStack: .pushStack
        case .present: .present
        case .pop: .pop
        case .popItem: .popItem
        case .popTo: .popTo
        case .focusFirst: .focusFirst
        case .focus: .focus
        case .popToRoot: .popToRoot
        case .child: .child
        case .dismiss: .dismiss
        case .dismissCoordinator: .dismissCoordinator
        case .finish: .finish
        case .addTab: .addTab
        case .removeTab: .removeTab
        case .presentAlert: .presentAlert
        case .respondToAlert: .respondToAlert
        case .back: .back
        case .dismissModal: .dismissModal
        case .selectTab: .selectTab
        }
    }

    /// Whether the step is a user gesture (for the history's `source`).
    public var isGesture: Bool {
        switch self {
        case .back, .dismissModal, .selectTab: true
        default: false
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

extension Step {
    /// The `route` member, for the operations that have one.
    public var route: String? {
        switch operation {
        case .root(let route, _), .hasRoot(let route), .isRoot(let route), .route(let route, _), .show(let route, _),
            .push(let route, _),
            .present(let route, _, _), .popTo(let route, _), .focusFirst(let route, _), .focus(let route),
            .addTab(let route, _), .selectTab(let route):
            route
        default: nil
        }
    }

    /// The `input` member, for the operations that have one.
    public var input: JSONValue? {
        switch operation {
        case .root(_, let input), .route(_, let input), .show(_, let input), .push(_, let input),
            .present(_, let input, _), .focusFirst(_, let input), .addTab(_, let input):
            input
        default: nil
        }
    }

    /// The `presentation` member of `present`.
    public var presentation: Presentation? {
        if case .present(_, _, let presentation) = operation { return presentation }
        return nil
    }

    /// The `match` member of `popTo`.
    public var match: StackMatch? {
        if case .popTo(_, let match) = operation { return match }
        return nil
    }

    /// The `item` member of `popItem` and `removeTab`.
    public var item: String? {
        switch operation {
        case .popItem(let item), .removeTab(let item): item
        default: nil
        }
    }

    /// The `routes` member of `pushStack`.
    public var routes: [RouteReference]? {
        if case .pushStack(let routes) = operation { return routes }
        return nil
    }

    /// The `title` member of `presentAlert`.
    public var title: String? {
        if case .presentAlert(let title, _, _) = operation { return title }
        return nil
    }

    /// The `message` member of `presentAlert`.
    public var message: String? {
        if case .presentAlert(_, let message, _) = operation { return message }
        return nil
    }

    /// The `actions` member of `presentAlert`.
    public var actions: [AlertAction]? {
        if case .presentAlert(_, _, let actions) = operation { return actions }
        return nil
    }

    /// The `result` member of `finish`.
    public var result: JSONValue? {
        if case .finish(let result) = operation { return result }
        return nil
    }

    /// The `choice` member of `respondToAlert`.
    public var choice: Int? {
        if case .respondToAlert(let choice) = operation { return choice }
        return nil
    }
}
