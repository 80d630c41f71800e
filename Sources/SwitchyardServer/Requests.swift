import Switchyard

/// The body of `POST /api/sessions/{id}/transitions`: one step, or `{coordinator?, steps, expectedVersion?}`.
struct TransitionRequest: Decodable {
    var coordinator: String?
    var steps: [Step]
    var expectedVersion: Int?

    private enum CodingKeys: String, CodingKey {
        case coordinator, steps, expectedVersion
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        coordinator = try container.decodeIfPresent(String.self, forKey: .coordinator)
        expectedVersion = try container.decodeIfPresent(Int.self, forKey: .expectedVersion)
        if container.contains(.steps) {
            steps = try container.decode([Step].self, forKey: .steps)
        } else {
            steps = [try Step(from: decoder)]
        }
    }

    /// True when every step is a user gesture (for the history's `source`).
    var isGesture: Bool {
        steps.allSatisfy(\.operation.isGesture)
    }
}

/// The body of `POST /api/sessions/{id}/events`.
struct EventRequest: Decodable {
    var from: String?
    var name: String
    var payload: JSONValue?
    var fields: [String: String]?
    var expectedVersion: Int?
}

/// The body of `POST /api/sessions/{id}/deeplinks`.
struct DeepLinkRequest: Decodable {
    var url: String
    var expectedVersion: Int?
}

/// The body of `POST /api/sessions/{id}/restore`: the version to return to.
struct RestoreRequest: Decodable {
    var version: Int
    var expectedVersion: Int?
}

/// The optional body of `POST /api/sessions`.
struct CreateSessionRequest: Decodable {
    var app: String?
}
