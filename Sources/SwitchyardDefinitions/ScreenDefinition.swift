import Switchyard

/// A screen declared as data: its title, background and elements, rendered from the context each time the state
/// is read; `result`, the type of value it finishes with (`{"action": "finish", "result": …}`), if it produces one.
struct ScreenDefinition: Sendable {
    let name: String
    let title: Template
    let background: Template?
    let content: [ElementDefinition]
    let result: ValueType?

    static func read(
        _ name: String, _ value: JSONValue, at pointer: String, _ reader: DefinitionReader
    )
        -> ScreenDefinition?
    {
        guard
            let members = reader.object(
                value, at: pointer, "a screen", allowed: ["title", "background", "content", "result"],
                required: ["title"]),
            let title = reader.template(members["title"], at: Pointer.append(pointer, "title"), "title")
        else { return nil }
        let content =
            reader.array(members["content"], at: Pointer.append(pointer, "content"), "elements")?.enumerated()
            .compactMap {
                ElementDefinition.read($1, at: Pointer.append(Pointer.append(pointer, "content"), $0), reader)
            }
            ?? []
        return ScreenDefinition(
            name: name, title: title,
            background: reader.template(members["background"], at: Pointer.append(pointer, "background"), "background"),
            content: content,
            result: members["result"].flatMap { ValueType.read($0, at: Pointer.append(pointer, "result"), reader) })
    }
}
