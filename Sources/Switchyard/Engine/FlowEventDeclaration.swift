/// A flow event a coordinator handles, as the catalog lists it: a coordinator says which events its
/// ``Coordinatable/handle(_:)`` takes in ``Coordinatable/events``.
///
/// ```swift
/// static let events = [
///     FlowEventDeclaration("login", fields: ["username"]),
///     FlowEventDeclaration("openTodo", payload: ["type": "object", "properties": ["id": ["type": "string"]]]),
/// ]
/// ```
public struct FlowEventDeclaration: Sendable, Hashable {
    /// The event's name.
    public var name: String
    /// What it carries in `payload`, as a JSON Schema; nil when it carries nothing.
    public var payload: JSONValue?
    /// The screen field ids whose values it reads from `fields`.
    public var fields: [String]
    /// What it does, in a sentence.
    public var summary: String?

    /// An event named `name`, with the shape of its payload and the fields it reads.
    public init(_ name: String, payload: JSONValue? = nil, fields: [String] = [], summary: String? = nil) {
        self.name = name
        self.payload = payload
        self.fields = fields
        self.summary = summary
    }

    /// `{"name", "fields", "payload"?, "summary"?}`
    var catalogEntry: JSONValue {
        var entry: [String: JSONValue] = ["name": .string(name), "fields": .array(fields.map(JSONValue.string))]
        if let payload { entry["payload"] = payload }
        if let summary { entry["summary"] = .string(summary) }
        return .object(entry)
    }
}
