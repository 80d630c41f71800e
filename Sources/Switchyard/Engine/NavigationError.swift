/// Why the engine refused an operation. Every refusal leaves the tree and the version untouched.
///
/// `code` is stable and machine-readable; `category` says what kind of mistake it is (the HTTP layer maps it to a
/// status code); `choices` lists valid values when the mistake is an unknown or wrong name.
public struct NavigationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of mistake this is.
    public enum Category: String, Sendable, Hashable {
        /// The request names something that does not exist in this coordinator (a route, an action).
        case invalidRequest
        /// The input does not decode as the route's input type, or an event nobody handles.
        case invalidInput
        /// A navigation rule refuses the operation in the current state.
        case conflict
        /// A route's guard refuses to let it be entered.
        case forbidden
        /// The addressed coordinator, item or deep link does not exist.
        case notFound
    }

    /// Stable machine-readable code, e.g. `cannotPopRoot`.
    public let code: String
    /// What kind of mistake this is.
    public let category: Category
    /// A sentence for people.
    public let message: String
    /// Valid alternatives, when the mistake is a wrong name.
    public let choices: [String]
    /// For a guard's redirect (``redirected(_:to:)``), the one refusal after which the state has changed: the
    /// guarded route, now pending; nil for every other error.
    public let redirect: PendingRoute?

    /// Creates an error; prefer the static factories.
    public init(code: String, category: Category, message: String, choices: [String] = []) {
        self.init(code: code, category: category, message: message, choices: choices, redirect: nil)
    }

    init(code: String, category: Category, message: String, choices: [String], redirect: PendingRoute?) {
        self.code = code
        self.category = category
        self.message = message
        self.choices = choices
        self.redirect = redirect
    }

    public var description: String { "\(code): \(message)" }

    /// The same refusal, its message followed by `hint` (the step that would work instead), if any: e.g.
    /// "…; it cannot be dismissed; use pop to go back in this stack".
    func hinted(_ hint: String?) -> Self {
        guard let hint else { return self }
        return .init(
            code: code, category: category, message: "\(message); \(hint)", choices: choices, redirect: redirect)
    }
}

extension NavigationError {
    /// No route of that name in the coordinator.
    public static func unknownRoute(_ name: String, in type: String, choices: [String]) -> Self {
        .init(
            code: "unknownRoute", category: .invalidRequest,
            message: "\(type) has no route named '\(name)'", choices: choices)
    }

    /// The route exists but cannot be used with this operation (e.g. pushing a tab route).
    public static func wrongRouteKind(_ name: String, in type: String, expected: String, choices: [String]) -> Self {
        .init(
            code: "wrongRouteKind", category: .invalidRequest,
            message: "route '\(name)' of \(type) is not \(expected)", choices: choices)
    }

    /// The operation does not exist for this kind of coordinator.
    public static func unsupported(_ operation: String, kind: CoordinatorKind, type: String) -> Self {
        .init(
            code: "unsupportedOperation", category: .invalidRequest,
            message: "'\(operation)' is not available on \(type), \(Article.withIndefinite(kind.rawValue)) coordinator")
    }

    /// The input does not decode as the route's input type.
    public static func invalidInput(route: String, expected: String, reason: String) -> Self {
        .init(
            code: "invalidInput", category: .invalidInput,
            message: "input for route '\(route)' must be \(expected): \(reason)")
    }

    /// Popping a stack that holds only its root.
    public static func cannotPopRoot(_ type: String) -> Self {
        .init(code: "cannotPopRoot", category: .conflict, message: "\(type) shows only its root; nothing to pop")
    }

    /// The route is not in the stack.
    public static func routeNotInStack(_ route: String, stack: [String]) -> Self {
        .init(
            code: "routeNotInStack", category: .conflict,
            message: "route '\(route)' is not in the stack", choices: stack)
    }

    /// The route is not one of the tabs.
    public static func notATab(_ route: String, tabs: [String]) -> Self {
        .init(code: "notATab", category: .conflict, message: "'\(route)' is not a tab", choices: tabs)
    }

    /// Dismissing the root coordinator.
    public static var cannotDismissRoot: Self {
        .init(code: "cannotDismissRoot", category: .conflict, message: "the root coordinator cannot be dismissed")
    }

    /// Dismissing the content of a tab.
    public static func cannotDismissTabContent(_ type: String) -> Self {
        .init(
            code: "cannotDismissTabContent", category: .conflict,
            message: "\(type) is the content of a tab and is not presented; it cannot be dismissed")
    }

    /// Dismissing a coordinator that is the root content of its parent.
    public static func notPresented(_ type: String) -> Self {
        .init(
            code: "notPresented", category: .conflict,
            message: "\(type) is the root of its parent, not presented or pushed; it cannot be dismissed (dismiss its "
                + "parent, or switch the parent's root)")
    }

    /// A gesture while an alert is shown: as on iOS, the alert takes every touch until it is answered.
    public static func alertShown(title: String) -> Self {
        .init(
            code: "alertShown", category: .conflict,
            message: "the alert '\(title)' is shown; answer it first (respondToAlert)")
    }

    /// A tab tap while a sheet or full-screen cover is presented over the tab bar.
    public static func tabBarCovered(by route: String, presentation: Presentation) -> Self {
        .init(
            code: "tabBarCovered", category: .conflict,
            message: "the tab bar is under the \(presentation.noun) '\(route)'; dismiss it before switching tabs")
    }

    /// Swipe-down on a full-screen cover, which (as on iOS) only its own controls close.
    public static func notSwipeDismissible(route: String) -> Self {
        .init(
            code: "notSwipeDismissible", category: .conflict,
            message: "'\(route)' is a full-screen cover: swiping down does not close it; use its own close button (a "
                + "dismiss step)")
    }

    /// A user gesture tried to remove a modal declared non-dismissible.
    public static func notDismissible(route: String) -> Self {
        .init(
            code: "notDismissible", category: .conflict,
            message: "the modal '\(route)' cannot be dismissed by the user")
    }

    /// The owner's `shouldLeave` hook refused.
    public static func vetoed(route: String, reason: String) -> Self {
        .init(code: "vetoed", category: .conflict, message: "leaving '\(route)' was refused: \(reason)")
    }

    /// The back gesture has nothing to go back to in the top presentation layer.
    public static var cannotGoBack: Self {
        .init(
            code: "cannotGoBack", category: .conflict,
            message: "the visible screen is the first of its presentation; nothing to go back to")
    }

    /// The dismiss gesture has no modal to dismiss.
    public static var noModal: Self {
        .init(code: "noModal", category: .conflict, message: "no modal is presented")
    }

    /// `hasRoot` / `child` found no such child.
    public static func notRoot(_ route: String, current: String) -> Self {
        .init(
            code: "notRoot", category: .conflict, message: "the current root is '\(current)', not '\(route)'",
            choices: [current])
    }

    /// `child` on a coordinator whose current content is a screen.
    public static func noChild(_ type: String) -> Self {
        .init(code: "noChild", category: .conflict, message: "\(type) currently shows a screen, not a coordinator")
    }

    /// An alert is already shown by this coordinator.
    public static var alertAlreadyPresented: Self {
        .init(code: "alertAlreadyPresented", category: .conflict, message: "an alert is already presented")
    }

    /// No alert to respond to.
    public static var noAlert: Self {
        .init(code: "noAlert", category: .conflict, message: "no alert is presented")
    }

    /// The alert has no action with that index.
    public static func invalidAlertChoice(_ choice: Int, actions: [String]) -> Self {
        .init(
            code: "invalidAlertChoice", category: .invalidRequest,
            message: "the alert has no action #\(choice)", choices: actions)
    }

    /// The last tab cannot be removed.
    public static var cannotRemoveLastTab: Self {
        .init(code: "cannotRemoveLastTab", category: .conflict, message: "a tab coordinator keeps at least one tab")
    }

    /// A push of something that cannot continue a navigation stack.
    public static func cannotPush(_ type: String) -> Self {
        .init(
            code: "cannotPush", category: .conflict,
            message: "\(type) is not a navigation coordinator; only screens and navigation coordinators can be pushed")
    }

    /// The coordinator is not (or no longer) part of the tree.
    public static func detached(_ type: String) -> Self {
        .init(code: "detached", category: .notFound, message: "\(type) is not part of the navigation tree")
    }

    /// No coordinator with that id or type.
    public static func coordinatorNotFound(_ reference: String) -> Self {
        .init(code: "coordinatorNotFound", category: .notFound, message: "no coordinator '\(reference)' in the tree")
    }

    /// No item with that id.
    public static func itemNotFound(_ reference: String) -> Self {
        .init(code: "itemNotFound", category: .notFound, message: "no item '\(reference)' in the tree")
    }

    /// Nobody handled the flow event; `declared` are the events the coordinators from the sender up declare.
    public static func eventNotHandled(_ name: String, declared: [String] = []) -> Self {
        .init(
            code: "eventNotHandled", category: .invalidInput,
            message: "no coordinator from the sender up to the root handled the event '\(name)'"
                + (declared.isEmpty ? "" : "; the events declared from there: \(declared.joined(separator: ", "))"),
            choices: declared)
    }

    /// No deep-link pattern matched the URL.
    public static func deepLinkNotMatched(_ url: String, patterns: [String]) -> Self {
        .init(
            code: "deepLinkNotMatched", category: .notFound, message: "no deep link matches '\(url)'",
            choices: patterns)
    }

    /// A matching deep link could not be resolved (e.g. an unknown id).
    public static func deepLinkUnresolved(_ url: String, reason: String) -> Self {
        .init(code: "deepLinkUnresolved", category: .notFound, message: "'\(url)' cannot be opened: \(reason)")
    }

    /// A saved tree could not be restored.
    public static func restoreFailed(_ reason: String) -> Self {
        .init(code: "restoreFailed", category: .invalidInput, message: "the saved state cannot be restored: \(reason)")
    }
}
