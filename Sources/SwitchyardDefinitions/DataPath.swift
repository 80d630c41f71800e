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
                let wanted = Self.wanted(value, context)
                current = elements.first { $0.objectValue?[field] == wanted }
            }
        }
        return current
    }

    /// `data` with the value at this path replaced by what `change` makes of it (nil: removed). Missing objects on
    /// the way are made, unless `creating` is false (removing): then a missing parent leaves `data` as it is.
    /// Throws when the path crosses something that is not an object, or a selector finds no element.
    func update(
        _ data: JSONValue, _ context: TemplateContext, creating: Bool = true,
        _ change: (JSONValue?) throws -> JSONValue?
    ) throws -> JSONValue {
        try update(data, segments[...], context, creating, change)
    }

    /// A selector's wanted value: what its template gives; a literal written as a JSON scalar (`[done=true]`,
    /// `[n=5]`, `[id="5"]`) is that JSON value, any other literal text.
    static func wanted(_ template: Template, _ context: TemplateContext) -> JSONValue {
        let value = template.value(context)
        guard template.paths.isEmpty, case .string(let text) = value,
            let literal = try? JSONValue(parsing: Array(text.utf8))
        else { return value }
        switch literal {
        case .number, .bool, .null, .string: return literal
        default: return value
        }
    }

    private func update(
        _ value: JSONValue, _ rest: ArraySlice<Segment>, _ context: TemplateContext, _ creating: Bool,
        _ change: (JSONValue?) throws -> JSONValue?
    ) throws -> JSONValue {
        guard let segment = rest.first else { return value }
        guard case .object(var members) = value else {
            throw DataError.notAnObject(text)
        }
        let next = rest.dropFirst()
        if !creating, !next.isEmpty || segment.selector != nil, members[segment.key] == nil {
            return value
        }
        if let (field, template) = segment.selector {
            guard case .array(var elements) = members[segment.key] ?? .null else { throw DataError.notAnArray(text) }
            let wanted = Self.wanted(template, context)
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
                elements[index] = try update(elements[index], next, context, creating, change)
            }
            members[segment.key] = .array(elements)
        } else if next.isEmpty {
            members[segment.key] = try change(members[segment.key])
        } else {
            members[segment.key] = try update(members[segment.key] ?? .object([:]), next, context, creating, change)
        }
        return .object(members)
    }
}
