import Switchyard

/// A deep link declared as data: a pattern (the syntax of `DeepLinkRouter`), links to offer as examples, the steps
/// it takes from the root coordinator (`{{link.<parameter>}}` in them), and what must hold first (`waitUntil`): until
/// it does, the link is kept pending and opened by the change that makes it hold.
struct DeepLinkDefinition: Sendable {
    let pattern: String
    let examples: [String]
    let waitUntil: Condition?
    let steps: [StepTemplate]

    static func read(_ value: JSONValue, at pointer: String, _ reader: DefinitionReader) -> DeepLinkDefinition? {
        guard
            let members = reader.object(
                value, at: pointer, "a deep link", allowed: ["pattern", "examples", "waitUntil", "steps"],
                required: ["pattern", "steps"]),
            let pattern = reader.string(members["pattern"], at: Pointer.append(pointer, "pattern"), "pattern")
        else { return nil }
        let examples =
            reader.array(members["examples"], at: Pointer.append(pointer, "examples"), "example links")?.enumerated()
            .compactMap { reader.string($1, at: Pointer.append(Pointer.append(pointer, "examples"), $0), "link") } ?? []
        return DeepLinkDefinition(
            pattern: pattern, examples: examples,
            waitUntil: members["waitUntil"].flatMap {
                Condition.read($0, at: Pointer.append(pointer, "waitUntil"), reader)
            },
            steps: StepTemplate.readList(members["steps"], at: Pointer.append(pointer, "steps"), reader))
    }
}
