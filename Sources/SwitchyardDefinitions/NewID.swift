import Switchyard

/// The id an `append` gives the element it adds: `{"member": "id", "from": "{{name}}"}` sets the member `id` to a
/// slug of the rendered text (lowercased; every run of characters that are not letters or digits becomes one `-`;
/// at most 40 characters, not ending in `-`; `fallback`, default `item`, when nothing is left), made unique among
/// the array's elements with `-2`, `-3`, …: "Walk the dog!" gives `walk-the-dog`, then `walk-the-dog-2`.
struct NewID: Sendable, Hashable {
    let member: String
    let from: Template
    let fallback: String

    /// The element with its new id, unique among `elements`.
    func assign(to element: JSONValue, among elements: [JSONValue], _ context: TemplateContext) -> JSONValue {
        guard case .object(var members) = element else { return element }
        let taken = Set(elements.compactMap { $0.objectValue?[member]?.stringValue })
        let base = Self.slug(from.render(context), fallback: fallback)
        var id = base
        var counter = 2
        while taken.contains(id) {
            id = "\(base)-\(counter)"
            counter += 1
        }
        members[member] = .string(id)
        return .object(members)
    }

    static func slug(_ text: String, fallback: String) -> String {
        let lowered = text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let joined = String(lowered).split(separator: "-").joined(separator: "-")
        // Cut to 40 characters, never ending in a `-` (which `-2` would then double).
        let cut = String(joined.prefix(40).reversed().drop { $0 == "-" }.reversed())
        return cut.isEmpty ? fallback : cut
    }

    static func read(_ value: JSONValue, at pointer: String, _ reader: DefinitionReader) -> NewID? {
        guard
            let members = reader.object(
                value, at: pointer, "a new id", allowed: ["member", "from", "fallback"], required: ["member", "from"]),
            let member = reader.name(members["member"], at: Pointer.append(pointer, "member"), "member name"),
            let from = reader.template(members["from"], at: Pointer.append(pointer, "from"), "text")
        else { return nil }
        let fallback = reader.name(members["fallback"], at: Pointer.append(pointer, "fallback"), "fallback id")
        return NewID(member: member, from: from, fallback: fallback ?? "item")
    }
}
