import Switchyard

/// A JSON value whose strings are templates: rendered member by member (a string that is one tag, `{{data.user}}`,
/// becomes the JSON value at that path, so objects, numbers and booleans are copied as they are).
indirect enum JSONTemplate: Sendable, Hashable {
    case literal(JSONValue)
    case text(Template)
    case array([JSONTemplate])
    case object([String: JSONTemplate])

    /// The value in `context`.
    func value(_ context: TemplateContext) -> JSONValue {
        switch self {
        case .literal(let value): value
        case .text(let template): template.value(context)
        case .array(let elements): .array(elements.map { $0.value(context) })
        case .object(let members): .object(members.mapValues { $0.value(context) })
        }
    }

    /// The context paths its templates read.
    var paths: [String] {
        switch self {
        case .literal: []
        case .text(let template): template.paths
        case .array(let elements): elements.flatMap(\.paths)
        case .object(let members): members.values.flatMap(\.paths)
        }
    }

    /// Whether no template of it has a tag: its value is ``written`` in every context.
    var isConstant: Bool {
        switch self {
        case .literal: true
        case .text(let template): !template.hasTags
        case .array(let elements): elements.allSatisfy(\.isConstant)
        case .object(let members): members.values.allSatisfy(\.isConstant)
        }
    }

    /// The value as written, templates as text (for checking its shape before it is ever rendered).
    var written: JSONValue {
        switch self {
        case .literal(let value): value
        case .text(let template): .string(template.text)
        case .array(let elements): .array(elements.map(\.written))
        case .object(let members): .object(members.mapValues(\.written))
        }
    }

    static func read(_ value: JSONValue, at pointer: String, _ reader: DefinitionReader) -> JSONTemplate? {
        switch value {
        case .string(let text) where text.contains("{{"):
            return reader.template(value, at: pointer, "text").map { .text($0) }
        case .array(let elements):
            var read: [JSONTemplate] = []
            for (index, element) in elements.enumerated() {
                guard let element = JSONTemplate.read(element, at: Pointer.append(pointer, index), reader) else {
                    return nil
                }
                read.append(element)
            }
            return read.allSatisfy({ if case .literal = $0 { true } else { false } }) ? .literal(value) : .array(read)
        case .object(let members):
            var read: [String: JSONTemplate] = [:]
            for (name, member) in members {
                guard let member = JSONTemplate.read(member, at: Pointer.append(pointer, name), reader) else {
                    return nil
                }
                read[name] = member
            }
            return read.values.allSatisfy({ if case .literal = $0 { true } else { false } })
                ? .literal(value) : .object(read)
        default:
            return .literal(value)
        }
    }
}
