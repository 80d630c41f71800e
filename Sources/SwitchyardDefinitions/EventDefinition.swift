import Switchyard

/// A flow event a coordinator declared as data handles: what it reads (`fields`, `payload` as a JSON Schema), a
/// sentence for the catalog, and its ``Reaction``.
struct EventDefinition: Sendable {
    let declaration: FlowEventDeclaration
    let reaction: Reaction

    static func read(
        _ name: String, _ value: JSONValue, at pointer: String, _ reader: DefinitionReader
    )
        -> EventDefinition?
    {
        guard
            let members = reader.object(
                value, at: pointer, "an event", allowed: Reaction.members + ["fields", "payload", "summary"])
        else { return nil }
        let fields =
            reader.array(members["fields"], at: Pointer.append(pointer, "fields"), "field ids")?.enumerated().compactMap
        {
            reader.name($1, at: Pointer.append(Pointer.append(pointer, "fields"), $0), "field id")
        } ?? []
        let summary = reader.string(members["summary"], at: Pointer.append(pointer, "summary"), "summary")
        return EventDefinition(
            declaration: FlowEventDeclaration(name, payload: members["payload"], fields: fields, summary: summary),
            reaction: Reaction.read(members, at: pointer, reader))
    }
}
