/// The names the wire uses for steps, screen elements and screen actions: one table that the step decoder, the
/// state document writer and the catalog use, and that the tests hold the OpenAPI document, the state-document
/// reference and the page's renderer to.
public enum WireVocabulary {
    /// Every action a step can name (`{"action": …}`), in the order the documentation lists them.
    public static let actions: [String] = Step.Action.allCases.map(\.rawValue)
    /// Every screen element type (`{"type": …}` in a screen's `content`).
    public static let elementTypes: [String] = ScreenElement.Kind.allCases.map(\.rawValue)
    /// Every screen action type (`{"type": …}` of a button's, toggle's or row's `action`).
    public static let screenActionTypes: [String] = ScreenAction.Kind.allCases.map(\.rawValue)
}

extension ScreenElement {
    /// The element types, as the state document names them.
    public enum Kind: String, Sendable, CaseIterable {
        case text, image, textField, toggle, button, list
    }

    /// This element's type.
    public var kind: Kind {
        switch self {
        case .text: .text
        case .image: .image
        case .textField: .textField
        case .toggle: .toggle
        case .button: .button
        case .list: .list
        }
    }
}

extension ScreenAction {
    /// The action types, as the state document names them.
    public enum Kind: String, Sendable, CaseIterable {
        case transition, event, deepLink
    }

    /// This action's type.
    public var kind: Kind {
        switch self {
        case .transition, .open: .transition
        case .event: .event
        case .deepLink: .deepLink
        }
    }
}
