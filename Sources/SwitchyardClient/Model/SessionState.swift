import SwitchyardJSON

/// A session's state document (docs/state-document.md), typed: what the server says the app shows now.
///
/// Decode it from a state document with `JSONValueDecoder`, or take it from a ``SessionDocument``'s
/// ``SessionDocument/state``. Screen elements and actions of a kind this client does not know decode as
/// `.unknown` with their JSON, so an older app keeps working against a newer server.
public struct SessionState: Decodable, Sendable, Equatable {
    /// The session id.
    public let session: String
    /// The app and version the session runs.
    public let app: AppVersion
    /// The session's version: every committed change adds one.
    public let version: Int
    /// What is visible: the route path, its coordinator, item and screen.
    public let visible: VisibleState
    /// The root coordinator and everything it shows.
    public let tree: CoordinatorNode
    /// A deep link waiting for a precondition (a login, say).
    public let pendingDeepLink: String?
    /// A guarded route waiting for its guard to allow it.
    public let pendingRoute: PendingRoute?

    private enum CodingKeys: String, CodingKey {
        case session, app, version, visible, tree, pendingDeepLink, pendingRoute
    }
}

/// An app's name and version.
public struct AppVersion: Decodable, Sendable, Equatable, CustomStringConvertible {
    /// The app's name (`todo`).
    public let name: String
    /// Its version, from 1.
    public let version: Int

    /// `name@version`.
    public var description: String { "\(name)@\(version)" }
}

/// What is visible on top: the route path from the root and where it is.
public struct VisibleState: Decodable, Sendable, Equatable {
    /// Route names from the root coordinator down to the top-most visible screen.
    public let path: [String]
    /// The id of the coordinator that shows it (`n5`).
    public let coordinator: String
    /// The id of its entry (`i9`).
    public let item: String
    /// The rendered top-most screen; nil when the top-most visible thing is not a screen.
    public let screen: Screen?
}

/// A guarded route that opens once its guard allows it.
public struct PendingRoute: Decodable, Sendable, Equatable {
    /// The routes of the entries hosting each coordinator from the root down to the route's owner.
    public let owner: [String]
    /// The owner's coordinator type.
    public let type: String
    /// The route waiting.
    public let route: String
    /// Its input, if it takes one.
    public let input: JSONValue?
    /// How it was being entered.
    public let presentation: Presentation
}

/// How an entry is shown.
public enum Presentation: String, LenientEnum {
    /// Pushed on a navigation stack.
    case push
    /// A sheet.
    case modal
    /// A full-screen cover.
    case fullScreen
    /// A presentation this client does not know.
    case unknown
}
