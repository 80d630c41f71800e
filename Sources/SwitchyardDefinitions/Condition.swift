import Switchyard

/// A test over the context, written as data (guards, deep links waiting, an event's requirements):
///
/// - `{"path": "data.user", "exists": true}` — the path has a value (not null); `false`: it has none;
/// - `{"path": "data.role", "equals": "admin"}` — the value equals the JSON given (a template string is rendered);
/// - `{"path": "data.todos", "isEmpty": true}` — the string, array or object is empty (or absent);
/// - `{"path": "data.visits", "greaterThan": 0}`, `{"path": …, "lessThan": 10}` — the value is a number above
///   (below) the one given;
/// - `{"path": "fields.name", "longerThan": 120}` — the string has more characters (the array more elements, the
///   object more members) than given;
/// - `{"open": "Checkout"}` — a coordinator of that name is in the session's tree (Stinsen's `router(…)` finds one);
/// - `{"not": C}`, `{"all": [C, …]}`, `{"any": [C, …]}`.
indirect enum Condition: Sendable, Hashable {
    case exists(path: String, Bool)
    case equals(path: String, JSONTemplate)
    case isEmpty(path: String, Bool)
    case greaterThan(path: String, Double)
    case lessThan(path: String, Double)
    case longerThan(path: String, Int)
    case open(coordinator: String)
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
        case .greaterThan(let path, let bound):
            guard case .number(let number)? = context.lookup(path) else { return false }
            return number > bound
        case .lessThan(let path, let bound):
            guard case .number(let number)? = context.lookup(path) else { return false }
            return number < bound
        case .longerThan(let path, let bound):
            let count: Int =
                switch context.lookup(path) ?? .null {
                case .string(let text): text.count
                case .array(let elements): elements.count
                case .object(let members): members.count
                case .null, .bool, .number: 0
                }
            return count > bound
        case .open(let coordinator): return context.isOpen(coordinator)
        case .not(let condition): return !condition.holds(in: context)
        case .all(let conditions): return conditions.allSatisfy { $0.holds(in: context) }
        case .any(let conditions): return conditions.contains { $0.holds(in: context) }
        }
    }

    /// The context paths it reads.
    var paths: [String] {
        switch self {
        case .exists(let path, _), .isEmpty(let path, _), .greaterThan(let path, _), .lessThan(let path, _),
            .longerThan(let path, _):
            [path]
        case .equals(let path, let value): [path] + value.paths
        case .open: []
        case .not(let condition): condition.paths
        case .all(let conditions), .any(let conditions): conditions.flatMap(\.paths)
        }
    }

    /// The tests a condition can make: exactly one per condition.
    static let tests = [
        "exists", "equals", "isEmpty", "greaterThan", "lessThan", "longerThan", "open", "not", "all", "any",
    ]

    /// The coordinator names its `open` tests name, for the check.
    var coordinators: [String] {
        switch self {
        case .open(let name): [name]
        case .not(let condition): condition.coordinators
        case .all(let conditions), .any(let conditions): conditions.flatMap(\.coordinators)
        default: []
        }
    }

    static func read(_ value: JSONValue, at pointer: String, _ reader: DefinitionReader) -> Condition? {
        guard let members = reader.object(value, at: pointer, "a condition", allowed: ["path"] + tests) else {
            return nil
        }
        let found = tests.filter { members[$0] != nil }
        guard found.count == 1, let test = found.first else {
            reader.error(
                "invalidCondition", at: pointer,
                "a condition has exactly one of \(tests.joined(separator: ", ")) (found \(found.count))")
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
        case "open":
            if members["path"] != nil {
                reader.error("unknownMember", at: Pointer.append(pointer, "path"), "'open' takes no 'path'")
            }
            return reader.name(members["open"], at: Pointer.append(pointer, "open"), "coordinator name").map {
                .open(coordinator: $0)
            }
        default:
            guard let path = reader.string(members["path"], at: Pointer.append(pointer, "path"), "context path") else {
                reader.error("missingMember", at: pointer, "a condition with '\(test)' needs the member 'path'")
                return nil
            }
            let at = Pointer.append(pointer, test)
            switch test {
            case "exists": return reader.bool(members[test], at: at, "exists").map { .exists(path: path, $0) }
            case "isEmpty": return reader.bool(members[test], at: at, "isEmpty").map { .isEmpty(path: path, $0) }
            case "greaterThan", "lessThan":
                guard case .number(let bound)? = members[test] else {
                    reader.error("wrongType", at: at, "expected a number (what '\(test)' compares with)")
                    return nil
                }
                return test == "greaterThan" ? .greaterThan(path: path, bound) : .lessThan(path: path, bound)
            case "longerThan":
                return reader.integer(members[test], at: at, "length", in: 0...Int(Int32.max)).map {
                    .longerThan(path: path, $0)
                }
            default:
                return members[test].flatMap { JSONTemplate.read($0, at: at, reader) }.map { .equals(path: path, $0) }
            }
        }
    }
}
