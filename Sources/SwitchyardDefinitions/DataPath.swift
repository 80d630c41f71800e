import Switchyard

/// A place in the session's data: `user.name`, `todos`, or `todos[id={{payload.id}}].favourite` (the element of the
/// array `todos` whose `id` equals the rendered value).
struct DataPath: Sendable, Hashable, CustomStringConvertible {
    struct Segment: Sendable, Hashable {
        let key: String
        /// `[field=value]`: selects the element of the array at `key` whose `field` equals `value`.
        let selector: (field: String, value: Template)?

        static func == (lhs: Segment, rhs: Segment) -> Bool {
            lhs.key == rhs.key && lhs.selector?.field == rhs.selector?.field
                && lhs.selector?.value == rhs.selector?.value
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(key)
            hasher.combine(selector?.field)
        }
    }

    let text: String
    let segments: [Segment]

    var description: String { text }

    /// The first key: what a condition on `data.<key>` depends on.
    var root: String { segments[0].key }

    init?(_ text: String) {
        self.text = text
        var segments: [Segment] = []
        var depth = 0
        var current = ""
        var parts: [String] = []
        for character in text {
            if character == "[" { depth += 1 }
            if character == "]" { depth -= 1 }
            if character == ".", depth == 0 {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        for part in parts {
            if let open = part.firstIndex(of: "["), part.hasSuffix("]") {
                let key = String(part[..<open])
                let inner = part[part.index(after: open)..<part.index(before: part.endIndex)]
                guard let equals = inner.firstIndex(of: "="), DefinitionReader.isName(key),
                    let value = try? Template(String(inner[inner.index(after: equals)...]))
                else { return nil }
                let field = String(inner[..<equals])
                guard DefinitionReader.isName(field) else { return nil }
                segments.append(Segment(key: key, selector: (field, value)))
            } else {
                guard DefinitionReader.isName(part) else { return nil }
                segments.append(Segment(key: part, selector: nil))
            }
        }
        guard !segments.isEmpty else { return nil }
        self.segments = segments
    }

    /// The value at this path of `data`.
    func read(_ data: JSONValue, _ context: TemplateContext) -> JSONValue? {
        var current: JSONValue? = data
        for segment in segments {
            guard case .object(let members)? = current else { return nil }
            current = members[segment.key]
            if let (field, value) = segment.selector {
                guard case .array(let elements)? = current else { return nil }
                let wanted = value.value(context)
                current = elements.first { $0.objectValue?[field] == wanted }
            }
        }
        return current
    }

    /// `data` with the value at this path replaced by what `change` makes of it (nil: removed). Throws when the path
    /// crosses something that is not an object, or a selector finds no element.
    func update(
        _ data: JSONValue, _ context: TemplateContext, _ change: (JSONValue?) throws -> JSONValue?
    ) throws -> JSONValue {
        try update(data, segments[...], context, change)
    }

    private func update(
        _ value: JSONValue, _ rest: ArraySlice<Segment>, _ context: TemplateContext,
        _ change: (JSONValue?) throws -> JSONValue?
    ) throws -> JSONValue {
        guard let segment = rest.first else { return value }
        guard case .object(var members) = value else {
            throw DataError.notAnObject(text)
        }
        let next = rest.dropFirst()
        if let (field, template) = segment.selector {
            guard case .array(var elements) = members[segment.key] ?? .null else { throw DataError.notAnArray(text) }
            let wanted = template.value(context)
            guard let index = elements.firstIndex(where: { $0.objectValue?[field] == wanted }) else {
                throw DataError.noElement(text, wanted.jsonString)
            }
            if next.isEmpty {
                if let changed = try change(elements[index]) {
                    elements[index] = changed
                } else {
                    elements.remove(at: index)
                }
            } else {
                elements[index] = try update(elements[index], next, context, change)
            }
            members[segment.key] = .array(elements)
        } else if next.isEmpty {
            members[segment.key] = try change(members[segment.key])
        } else {
            members[segment.key] = try update(members[segment.key] ?? .object([:]), next, context, change)
        }
        return .object(members)
    }
}
