import Switchyard

/// A name bound to a value of the context (`let`), read by the templates and conditions after it:
///
/// - `"todo": "data.todos[id={{input}}]"` — the value at a context path;
/// - `"favourites": {"path": "data.todos", "where": {"path": "item.favourite", "equals": true}}` — the elements of an
///   array for which the condition holds (each element is `item` while it is tested);
/// - `"name": {"path": "fields.name", "trim": true}` — a string without the spaces and line breaks around it;
/// - `"user": {"path": ["fields.user", "payload.user"]}` — the first of the paths that has a value.
///
/// Bound once, before what reads it runs: a handler's bindings see the data as it was before its operations.
struct Binding: Sendable, Hashable {
    let name: String
    /// The first of these paths with a value (not null) gives it.
    let path: [String]
    let filter: Condition?
    let trim: Bool

    /// Names the context gives already, which a binding may not hide.
    static let reserved: Set<String> = [
        "data", "input", "item", "payload", "fields", "link", "result", "cancelled", "coordinator",
    ]

    /// Its value in `context` (null where the path has none).
    func value(in context: TemplateContext) -> JSONValue {
        var value = path.lazy.compactMap { context.lookup($0) }.first { $0 != .null } ?? .null
        if let filter, case .array(let elements) = value {
            value = .array(
                elements.filter { element in
                    var scope = context
                    scope.values["item"] = element
                    return filter.holds(in: scope)
                })
        }
        if trim, case .string(let text) = value {
            value = .string(text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return value
    }

    /// The context paths it reads, for the check.
    var paths: [String] {
        path + (filter?.paths.filter { !$0.hasPrefix("item") } ?? [])
    }

    /// The bindings of a `let` member (an object, by name).
    static func readAll(_ value: JSONValue?, at pointer: String, _ reader: DefinitionReader) -> [Binding] {
        guard let value else { return [] }
        guard case .object(let members) = value else {
            _ = reader.object(value, at: pointer, "bindings (names to context paths)", allowed: [])
            return []
        }
        return members.keys.sorted().compactMap { name in
            let at = Pointer.append(pointer, name)
            guard DefinitionReader.isName(name) else {
                reader.error("invalidName", at: at, "'\(name)' is not a name")
                return nil
            }
            guard !reserved.contains(name) else {
                reader.error(
                    "invalidName", at: at, "'\(name)' is a name the context gives already",
                    suggestion: "choose another name")
                return nil
            }
            return read(name, members[name] ?? .null, at: at, reader)
        }
    }

    private static func read(
        _ name: String, _ value: JSONValue, at pointer: String, _ reader: DefinitionReader
    ) -> Binding? {
        if case .string(let path) = value {
            return checked(Binding(name: name, path: [path], filter: nil, trim: false), at: pointer, reader)
        }
        guard
            let members = reader.object(
                value, at: pointer, "a binding", allowed: ["path", "where", "trim"], required: ["path"])
        else { return nil }
        let at = Pointer.append(pointer, "path")
        let path: [String]
        if case .array(let list)? = members["path"] {
            path = list.enumerated().compactMap { reader.string($1, at: Pointer.append(at, $0), "context path") }
            guard path.count == list.count, !path.isEmpty else {
                if list.isEmpty { reader.error("invalidPath", at: at, "a binding needs at least one path") }
                return nil
            }
        } else {
            guard let one = reader.string(members["path"], at: at, "context path") else { return nil }
            path = [one]
        }
        let filter = members["where"].flatMap { Condition.read($0, at: Pointer.append(pointer, "where"), reader) }
        let trim = reader.bool(members["trim"], at: Pointer.append(pointer, "trim"), "trim") ?? false
        return checked(Binding(name: name, path: path, filter: filter, trim: trim), at: pointer, reader)
    }

    private static func checked(_ binding: Binding, at pointer: String, _ reader: DefinitionReader) -> Binding? {
        if let wrong = binding.path.first(where: { !ContextPath.isValid($0) }) {
            reader.error(
                "invalidPath", at: pointer, "'\(wrong)' is not a context path",
                suggestion: "names joined by '.', an array element selected as data.todos[id={{input}}]")
            return nil
        }
        return binding
    }
}

extension TemplateContext {
    /// The context with `bindings` added, each bound in the context as it is before any of them.
    func binding(_ bindings: [Binding]) -> TemplateContext {
        guard !bindings.isEmpty else { return self }
        var bound = self
        for binding in bindings {
            bound.values[binding.name] = binding.value(in: self)
        }
        return bound
    }
}
