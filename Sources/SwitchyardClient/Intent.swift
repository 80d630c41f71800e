import Foundation
import SwitchyardJSON

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
        /// `POST /api/sessions/{id}/restore`: back to an earlier version, as a new change.
        case restore
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

    /// An intent of `kind` whose body is the JSON text `json` (as the API documents it).
    public init(_ kind: Kind, json: String, id: String = UUID().uuidString) {
        self.init(kind, body: Data(json.utf8), id: id)
    }

    /// An intent of `kind` whose body is `json`.
    public init(_ kind: Kind, _ json: JSONValue, id: String = UUID().uuidString) {
        self.init(kind, body: Data(json.serialized()), id: id)
    }

    /// A transition: `steps` in order from `coordinator` (a node id such as `n5`, or a type name for the one nearest
    /// the visible screen; the root coordinator when nil), refused with 412 unless the session is at
    /// `expectedVersion` when one is given.
    public static func transition(_ steps: [Step], coordinator: String? = nil, expectedVersion: Int? = nil) -> Intent {
        var body: [String: JSONValue] = ["steps": .array(steps.map(\.json))]
        if let coordinator { body["coordinator"] = .string(coordinator) }
        if let expectedVersion { body["expectedVersion"] = .number(Double(expectedVersion)) }
        return Intent(.transitions, .object(body))
    }

    /// A flow event `name`, from the entry `from` (the nearest handler when nil), with its `payload` and the values
    /// of the screen's `fields`; refused with 412 unless the session is at `expectedVersion` when one is given.
    public static func event(
        _ name: String, from: String? = nil, payload: JSONValue? = nil, fields: [String: String] = [:],
        expectedVersion: Int? = nil
    ) -> Intent {
        var body: [String: JSONValue] = ["name": .string(name)]
        if let from { body["from"] = .string(from) }
        if let payload { body["payload"] = payload }
        if !fields.isEmpty { body["fields"] = .object(fields.mapValues { .string($0) }) }
        if let expectedVersion { body["expectedVersion"] = .number(Double(expectedVersion)) }
        return Intent(.events, .object(body))
    }

    /// A deep link (`todo://todos/42`); refused with 412 unless the session is at `expectedVersion` when one is
    /// given.
    public static func deepLink(_ url: String, expectedVersion: Int? = nil) -> Intent {
        var body: [String: JSONValue] = ["url": .string(url)]
        if let expectedVersion { body["expectedVersion"] = .number(Double(expectedVersion)) }
        return Intent(.deeplinks, .object(body))
    }

    /// Back to the session's state at `version`, as a new change; refused with 412 unless the session is at
    /// `expectedVersion` when one is given.
    public static func restore(to version: Int, expectedVersion: Int? = nil) -> Intent {
        var body: [String: JSONValue] = ["version": .number(Double(version))]
        if let expectedVersion { body["expectedVersion"] = .number(Double(expectedVersion)) }
        return Intent(.restore, .object(body))
    }

    /// What tapping a control whose action is `action` sends, with the current values of the screen's fields by id
    /// (for a toggle, its new state: `"true"` or `"false"`); nil for an action this client does not know.
    public init?(_ action: ScreenAction, fields: [String: String] = [:]) {
        switch action {
        case .transition(let coordinator, let steps):
            self = .transition(steps, coordinator: coordinator)
        case .event(let from, let name, let payload, let names):
            let values = names.reduce(into: [String: String]()) { $0[$1] = fields[$1] ?? "" }
            self = .event(name, from: from, payload: payload, fields: values)
        case .deepLink(let url):
            self = .deepLink(url)
        case .unknown:
            return nil
        }
    }
}
