import Switchyard

/// A test over the context, written as data (guards, deep links waiting, an event's requirements):
///
/// - `{"path": "data.user", "exists": true}` — the path has a value (not null); `false`: it has none;
/// - `{"path": "data.role", "equals": "admin"}` — the value equals the JSON given (a template string is rendered);
/// - `{"path": "data.todos", "isEmpty": true}` — the string, array or object is empty (or absent);
/// - `{"not": C}`, `{"all": [C, …]}`, `{"any": [C, …]}`.
indirect enum Condition: Sendable, Hashable {
    case exists(path: String, Bool)
    case equals(path: String, JSONTemplate)
    case isEmpty(path: String, Bool)
    case not(Condition)
    case all([Condition])
    case any([Condition])

    /// Whether it holds in `context`.
    func holds(in context: TemplateContext) -> Bool {
        switch self {
        case .exists(let path, let expected):
            return ((context.lookup(path) ?? .null) != .null) == expected
        case .equals(let path, let value):
            return (context.lookup(path) ?? .null) == value.value(context)
        case .isEmpty(let path, let expected):
            let empty: Bool =
                switch context.lookup(path) ?? .null {
                case .null: true
                case .string(let text): text.isEmpty
                case .array(let elements): elements.isEmpty
                case .object(let members): members.isEmpty
                case .bool, .number: false
                }
            return empty == expected
        case .not(let condition): return !condition.holds(in: context)
        case .all(let conditions): return conditions.allSatisfy { $0.holds(in: context) }
        case .any(let conditions): return conditions.contains { $0.holds(in: context) }
        }
    }

    /// The context paths it reads.
    var paths: [String] {
        switch self {
        case .exists(let path, _), .isEmpty(let path, _): [path]
        case .equals(let path, let value): [path] + value.paths
        case .not(let condition): condition.paths
        case .all(let conditions), .any(let conditions): conditions.flatMap(\.paths)
        }
    }

    static func read(_ value: JSONValue, at pointer: String, _ reader: DefinitionReader) -> Condition? {
        let allowed = ["path", "exists", "equals", "isEmpty", "not", "all", "any"]
        guard let members = reader.object(value, at: pointer, "a condition", allowed: allowed) else { return nil }
        let tests = ["exists", "equals", "isEmpty", "not", "all", "any"].filter { members[$0] != nil }
        guard tests.count == 1, let test = tests.first else {
            reader.error(
                "invalidCondition", at: pointer,
                "a condition has exactly one of exists, equals, isEmpty, not, all, any (found \(tests.count))")
            return nil
        }
        func sub(_ name: String) -> [Condition]? {
            let at = Pointer.append(pointer, name)
            guard let list = reader.array(members[name], at: at, "conditions") else { return nil }
            let read = list.enumerated().compactMap { Condition.read($1, at: Pointer.append(at, $0), reader) }
            return read.count == list.count ? read : nil
        }
        switch test {
        case "not":
            return members["not"].flatMap { Condition.read($0, at: Pointer.append(pointer, "not"), reader) }.map {
                .not($0)
            }
        case "all": return sub("all").map { .all($0) }
        case "any": return sub("any").map { .any($0) }
        default:
            guard let path = reader.string(members["path"], at: Pointer.append(pointer, "path"), "context path") else {
                reader.error("missingMember", at: pointer, "a condition with '\(test)' needs the member 'path'")
                return nil
            }
            let at = Pointer.append(pointer, test)
            switch test {
            case "exists": return reader.bool(members[test], at: at, "exists").map { .exists(path: path, $0) }
            case "isEmpty": return reader.bool(members[test], at: at, "isEmpty").map { .isEmpty(path: path, $0) }
            default:
                return members[test].flatMap { JSONTemplate.read($0, at: at, reader) }.map { .equals(path: path, $0) }
            }
        }
    }
}
