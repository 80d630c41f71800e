import Switchyard

/// A deep link declared as data: a pattern (the syntax of `DeepLinkRouter`), links to offer as examples, the steps
/// it takes from the root coordinator (`{{link.<parameter>}}` in them), and what must hold first (`waitUntil`): until
/// it does, the link is kept pending and opened by the change that makes it hold. A requirement that fails
/// (`"require": [{"if": <condition>, "reason": "there is no todo '{{link.id}}'"}]`) refuses the link at once as
/// unresolved (404 `deepLinkUnresolved`), pending or not.
struct DeepLinkDefinition: Sendable {
    struct Requirement: Sendable, Hashable {
        let condition: Condition
        let reason: Template
    }

    let pattern: String
    let examples: [String]
    let requirements: [Requirement]
    let waitUntil: Condition?
    let steps: [StepTemplate]

    static func read(_ value: JSONValue, at pointer: String, _ reader: DefinitionReader) -> DeepLinkDefinition? {
        guard
            let members = reader.object(
                value, at: pointer, "a deep link", allowed: ["pattern", "examples", "require", "waitUntil", "steps"],
                required: ["pattern", "steps"]),
            let pattern = reader.string(members["pattern"], at: Pointer.append(pointer, "pattern"), "pattern")
        else { return nil }
        let examples =
            reader.array(members["examples"], at: Pointer.append(pointer, "examples"), "example links")?.enumerated()
            .compactMap { reader.string($1, at: Pointer.append(Pointer.append(pointer, "examples"), $0), "link") } ?? []
        let requireAt = Pointer.append(pointer, "require")
        let requirements =
            reader.array(members["require"], at: requireAt, "requirements")?.enumerated().compactMap {
                index, element -> Requirement? in
                let at = Pointer.append(requireAt, index)
                guard
                    let members = reader.object(
                        element, at: at, "a requirement", allowed: ["if", "reason"], required: ["if", "reason"]),
                    let condition = members["if"].flatMap({ Condition.read($0, at: Pointer.append(at, "if"), reader) }),
                    let reason = reader.template(members["reason"], at: Pointer.append(at, "reason"), "reason")
                else { return nil }
                return Requirement(condition: condition, reason: reason)
            } ?? []
        return DeepLinkDefinition(
            pattern: pattern, examples: examples, requirements: requirements,
            waitUntil: members["waitUntil"].flatMap {
                Condition.read($0, at: Pointer.append(pointer, "waitUntil"), reader)
            },
            steps: StepTemplate.readList(members["steps"], at: Pointer.append(pointer, "steps"), reader))
    }
}
