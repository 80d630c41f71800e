/// How a route presents what it makes, declared on `@Route`.
public struct RouteStyle: Sendable, Hashable {
    /// The presentation used by `route(to:)`.
    public let presentation: Presentation
    /// Whether the user may dismiss a modal with a gesture (close button, Escape, swipe down).
    public let dismissible: Bool

    /// A presentation, dismissible by gestures or not.
    package init(presentation: Presentation, dismissible: Bool) {
        self.presentation = presentation
        self.dismissible = dismissible
    }

    /// Pushed on the navigation stack.
    public static let push = RouteStyle(presentation: .push, dismissible: true)
    /// Presented as a sheet the user can dismiss.
    public static let modal = RouteStyle(presentation: .modal, dismissible: true)
    /// Presented as a full-screen cover.
    public static let fullScreen = RouteStyle(presentation: .fullScreen, dismissible: true)

    /// Presented as a sheet; with `dismissible: false` user gestures cannot dismiss it (code still can).
    public static func modal(dismissible: Bool) -> RouteStyle {
        RouteStyle(presentation: .modal, dismissible: dismissible)
    }
}

/// How an item is shown: pushed on a stack, or presented as a new layer.
public enum Presentation: String, Sendable, Hashable, Codable, CaseIterable {
    case push, modal, fullScreen

    /// Modal and full-screen items start a new presentation layer.
    public var isPresentation: Bool { self != .push }

    /// What people call an item shown this way, in messages: "pushed screen", "sheet", "full-screen cover".
    var noun: String {
        switch self {
        case .push: "pushed screen"
        case .modal: "sheet"
        case .fullScreen: "full-screen cover"
        }
    }
}
