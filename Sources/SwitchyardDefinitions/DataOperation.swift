import Switchyard

/// A change to the session's data, applied by a flow event or a delivered result:
/// `{"set": "user", "value": "{{fields.username}}"}`, `{"unset": "user"}`, `{"toggle": "todos[id={{payload.id}}].done"}`,
/// `{"increment": "visits", "by": 1}`, `{"append": "todos", "value": {…}, "newId": {…}}` (see ``NewID``),
/// `{"remove": "todos[id={{payload.id}}]"}`.
enum DataOperation: Sendable, Hashable {
    case set(DataPath, JSONTemplate)
    case unset(DataPath)
    case toggle(DataPath)
    case increment(DataPath, by: Double)
    case append(DataPath, JSONTemplate, id: NewID?)
    case remove(DataPath)

    static let names = ["set", "unset", "toggle", "increment", "append", "remove"]

    var path: DataPath {
        switch self {
        case .set(let path, _), .unset(let path), .toggle(let path), .increment(let path, _), .append(let path, _, _),
            .remove(let path):
            path
        }
    }

    /// `data` changed by this operation.
    func apply(to data: JSONValue, _ context: TemplateContext) throws -> JSONValue {
        switch self {
        case .set(let path, let value):
            let new = value.value(context)
            return try path.update(data, context) { _ in new }
        case .unset(let path), .remove(let path):
            return try path.update(data, context, creating: false) { _ in nil }
        case .toggle(let path):
            return try path.update(data, context) { old in
                switch old ?? .bool(false) {
                case .bool(let flag): return .bool(!flag)
                case .null: return .bool(true)
                default: throw DataError.wrongType(path.text, expected: "a boolean")
                }
            }
        case .increment(let path, let step):
            return try path.update(data, context) { old in
                switch old ?? .number(0) {
                case .number(let number): return .number(number + step)
                case .null: return .number(step)
                default: throw DataError.wrongType(path.text, expected: "a number")
                }
            }
        case .append(let path, let value, let id):
            let element = value.value(context)
            return try path.update(data, context) { old in
                switch old ?? .array([]) {
                case .array(let elements):
                    return .array(elements + [id?.assign(to: element, among: elements, context) ?? element])
                case .null: return .array([id?.assign(to: element, among: [], context) ?? element])
                default: throw DataError.wrongType(path.text, expected: "an array")
                }
            }
        }
    }

    static func read(_ value: JSONValue, at pointer: String, _ reader: DefinitionReader) -> DataOperation? {
        guard
            let members = reader.object(
                value, at: pointer, "a data operation", allowed: names + ["value", "by", "newId"])
        else { return nil }
        let operations = names.filter { members[$0] != nil }
        guard operations.count == 1, let operation = operations.first else {
            reader.error(
                "invalidOperation", at: pointer,
                "a data operation has exactly one of \(names.joined(separator: ", ")) (found \(operations.count))")
            return nil
        }
        let at = Pointer.append(pointer, operation)
        guard let text = reader.string(members[operation], at: at, "data path") else { return nil }
        guard let path = DataPath(text) else {
            reader.error(
                "invalidPath", at: at, "'\(text)' is not a data path",
                suggestion: "names joined by '.', an array element selected as name[field={{…}}]")
            return nil
        }
        let needsValue = operation == "set" || operation == "append"
        if needsValue, members["value"] == nil {
            reader.error("missingMember", at: pointer, "'\(operation)' needs the member 'value'")
            return nil
        }
        if !needsValue, members["value"] != nil {
            reader.error("unknownMember", at: Pointer.append(pointer, "value"), "'\(operation)' takes no 'value'")
        }
        if operation != "increment", members["by"] != nil {
            reader.error("unknownMember", at: Pointer.append(pointer, "by"), "only 'increment' takes 'by'")
        }
        if operation != "append", members["newId"] != nil {
            reader.error("unknownMember", at: Pointer.append(pointer, "newId"), "only 'append' takes 'newId'")
        }
        let value = members["value"].flatMap { JSONTemplate.read($0, at: Pointer.append(pointer, "value"), reader) }
        switch operation {
        case "set": return value.map { .set(path, $0) }
        case "append":
            let id = members["newId"].flatMap { NewID.read($0, at: Pointer.append(pointer, "newId"), reader) }
            return value.map { .append(path, $0, id: id) }
        case "unset": return .unset(path)
        case "toggle": return .toggle(path)
        case "remove": return .remove(path)
        default:
            guard let by = members["by"] else { return .increment(path, by: 1) }
            guard case .number(let step) = by else {
                reader.error("wrongType", at: Pointer.append(pointer, "by"), "expected a number (the increment)")
                return nil
            }
            return .increment(path, by: step)
        }
    }
}
