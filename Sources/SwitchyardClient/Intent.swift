import Foundation

/// A change an app asks a session for: a step or chain (`transitions`), a flow event (`events`) or a deep link
/// (`deeplinks`), as the API's JSON body, with a stable id. The id is sent as `Idempotency-Key` on every try, so a
/// retried intent is applied once however often it is sent (the server replays its first answer).
public struct Intent: Codable, Sendable, Equatable, Identifiable {
    /// Which endpoint of the session takes it.
    public enum Kind: String, Codable, Sendable {
        /// `POST /api/sessions/{id}/transitions`: a step or a chain.
        case transitions
        /// `POST /api/sessions/{id}/events`: a flow event.
        case events
        /// `POST /api/sessions/{id}/deeplinks`: a deep link.
        case deeplinks
    }

    /// The stable id, sent as `Idempotency-Key` (a UUID unless given).
    public let id: String
    /// The endpoint.
    public let kind: Kind
    /// The JSON body.
    public let body: Data

    /// An intent of `kind` with the JSON `body`.
    public init(_ kind: Kind, body: Data, id: String = UUID().uuidString) {
        self.kind = kind
        self.body = body
        self.id = id
    }

    /// A transition: `{"action": "push", "route": "todo", "input": "42"}` or a chain.
    public static func transition(_ json: String) -> Intent {
        Intent(.transitions, body: Data(json.utf8))
    }

    /// A flow event: `{"name": "login", "fields": {"username": "ada"}}`.
    public static func event(_ json: String) -> Intent {
        Intent(.events, body: Data(json.utf8))
    }

    /// A deep link: `{"url": "todo://todos/42"}`.
    public static func deepLink(_ url: String) -> Intent {
        let escaped = url.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return Intent(.deeplinks, body: Data(#"{"url":"\#(escaped)"}"#.utf8))
    }
}
