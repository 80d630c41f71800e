import Switchyard

/// The body of `POST /api/sessions/{id}/transitions`: one step, or `{coordinator?, steps, expectedVersion?}`.
struct TransitionRequest: StrictRequest, PlainJSONDecodable {
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

    /// The common shapes in one pass (``Step/init(plainJSON:)``); nil for anything else, which `Codable` decodes
    /// or explains.
    init?(plainJSON value: JSONValue) {
        guard case .object(let members) = value, let coordinator = PlainMember.string(members["coordinator"]),
            let expectedVersion = PlainMember.integer(members["expectedVersion"])
        else { return nil }
        self.coordinator = coordinator
        self.expectedVersion = expectedVersion
        switch members["steps"] {
        case nil:
            guard let step = Step(plainJSON: members, besides: ["coordinator", "expectedVersion"]) else { return nil }
            steps = [step]
        case .array(let elements)?:
            var steps: [Step] = []
            for case .object(let object) in elements {
                guard let step = Step(plainJSON: object) else { return nil }
                steps.append(step)
            }
            guard steps.count == elements.count else { return nil }
            self.steps = steps
        default:
            return nil
        }
    }

    /// A chain, `{coordinator, steps, expectedVersion}`; or one step with `coordinator` and `expectedVersion`.
    static func shape(of value: JSONValue) -> RequestShape {
        if case .object(let members) = value, members["steps"] != nil { return chain }
        return single
    }

    private static let chain = RequestShape.closed(["coordinator", "expectedVersion"]).adding(["steps": .array(.step)])
    private static let single = RequestShape.step.adding(["coordinator": .any, "expectedVersion": .any])
}

/// The body of `POST /api/sessions/{id}/events`.
struct EventRequest: StrictRequest {
    var from: String?
    var name: String
    var payload: JSONValue?
    var fields: [String: String]?
    var expectedVersion: Int?

    static func shape(of value: JSONValue) -> RequestShape { members }

    private static let members = RequestShape.closed(["from", "name", "payload", "fields", "expectedVersion"])
}

/// The body of `POST /api/sessions/{id}/deeplinks`.
struct DeepLinkRequest: StrictRequest {
    var url: String
    var expectedVersion: Int?

    static func shape(of value: JSONValue) -> RequestShape { members }

    private static let members = RequestShape.closed(["url", "expectedVersion"])
}

/// The body of `POST /api/sessions/{id}/restore`: the version to return to.
struct RestoreRequest: StrictRequest {
    var version: Int
    var expectedVersion: Int?

    static func shape(of value: JSONValue) -> RequestShape { members }

    private static let members = RequestShape.closed(["version", "expectedVersion"])
}

/// The optional body of `POST /api/sessions`.
struct CreateSessionRequest: StrictRequest {
    var app: String?

    static func shape(of value: JSONValue) -> RequestShape { members }

    private static let members = RequestShape.closed(["app"])
}

/// A request body with a one-pass decoding for its common shapes (``SwitchyardAPI/decode(_:_:)`` tries it first);
/// nil means "decode with `Codable`", which gives the same value or the precise problem.
protocol PlainJSONDecodable {
    init?(plainJSON value: JSONValue)
}
