import SwitchyardJSON

/// A session's state document as the server sent it (docs/state-document.md): the JSON itself (what a patch applies
/// to), the members an app reads most at hand, and the whole document typed (``state``).
public struct SessionDocument: Sendable, Equatable {
    /// The whole document.
    public let json: JSONValue
    /// The session's version (every committed change adds one).
    public let version: Int
    /// The session id.
    public let session: String
    /// The app and version the session runs.
    public let app: (name: String, version: Int)
    /// The route path to the visible screen, from the root (`["todos", "todo"]`).
    public let visiblePath: [String]
    /// The visible screen's title.
    public let title: String?
    /// The whole document typed: the tree of coordinators, stacks, tabs, alerts and screens. Nil only when it does
    /// not decode as this client's model (a server newer than the client); ``json`` still holds all of it.
    public let state: SessionState?

    /// The document `json`; nil unless it is a state document (it has `session`, `version` and `visible`).
    public init?(_ json: JSONValue) {
        guard case .number(let version)? = json["version"], let exact = Int(exactly: version),
            let session = json["session"]?.stringValue, case .object? = json["visible"]
        else { return nil }
        self.json = json
        self.version = exact
        self.session = session
        let name = json["app"]?["name"]?.stringValue ?? ""
        if case .number(let number)? = json["app"]?["version"], let appVersion = Int(exactly: number) {
            app = (name, appVersion)
        } else {
            app = (name, 1)
        }
        if case .array(let parts)? = json["visible"]?["path"] {
            visiblePath = parts.compactMap(\.stringValue)
        } else {
            visiblePath = []
        }
        title = json["visible"]?["screen"]?["title"]?.stringValue
        state = try? JSONValueDecoder().decode(SessionState.self, from: json)
    }

    public static func == (lhs: SessionDocument, rhs: SessionDocument) -> Bool {
        lhs.json == rhs.json
    }
}
