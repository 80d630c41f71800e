import Switchyard

/// A screen declared as data: its title, background and elements, rendered from the context each time the state
/// is read (after its own `let`); `result`, the type of value it finishes with (`{"action": "finish", "result": …}`),
/// if it produces one. An element with `when` is shown only while that condition holds.
struct ScreenDefinition: Sendable {
    struct Entry: Sendable, Hashable {
        let element: ElementDefinition
        let when: Condition?
    }

    let name: String
    let title: Template
    let background: Template?
    let content: [Entry]
    let result: ValueType?
    var bindings: [Binding] = []

    /// The elements, whether shown or not.
    var elements: [ElementDefinition] { content.map(\.element) }

    static func read(
        _ name: String, _ value: JSONValue, at pointer: String, _ reader: DefinitionReader
    )
        -> ScreenDefinition?
    {
        guard
            let members = reader.object(
                value, at: pointer, "a screen", allowed: ["title", "background", "content", "result", "let"],
                required: ["title"])
        else { return nil }
        // Read whatever the title is, so that the other members' mistakes come in the same round.
        let title = reader.template(members["title"], at: Pointer.append(pointer, "title"), "title")
        let content =
            reader.array(members["content"], at: Pointer.append(pointer, "content"), "elements")?.enumerated()
            .compactMap { index, value -> Entry? in
                let at = Pointer.append(Pointer.append(pointer, "content"), index)
                guard let element = ElementDefinition.read(value, at: at, reader) else { return nil }
                let when = value.objectValue?["when"].flatMap {
                    Condition.read($0, at: Pointer.append(at, "when"), reader)
                }
                return Entry(element: element, when: when)
            }
            ?? []
        let background = reader.template(
            members["background"], at: Pointer.append(pointer, "background"), "background")
        let result = members["result"].flatMap { ValueType.read($0, at: Pointer.append(pointer, "result"), reader) }
        let bindings = Binding.readAll(members["let"], at: Pointer.append(pointer, "let"), reader)
        guard let title else { return nil }
        var screen = ScreenDefinition(
            name: name, title: title, background: background, content: content, result: result)
        screen.bindings = bindings
        return screen
    }
}
