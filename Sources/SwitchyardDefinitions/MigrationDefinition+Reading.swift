import Switchyard

extension MigrationDefinition {
    /// Reads `migrations[index]` of a definition of version `version`.
    static func read(
        _ value: JSONValue, at pointer: String, version: Int, _ reader: DefinitionReader
    )
        -> MigrationDefinition?
    {
        guard
            let members = reader.object(
                value, at: pointer, "a migration", allowed: Self.members, required: ["from"])
        else { return nil }
        guard let from = reader.integer(members["from"], at: pointer + "/from", "version", in: 1...Int(Int32.max))
        else { return nil }
        if from >= version {
            reader.error(
                "migrationFromLaterVersion", at: pointer + "/from",
                "a migration from version \(from) cannot lead to version \(version)",
                suggestion: "migrate from an earlier version, or raise 'version'")
        }
        let coordinators = renames(members["renameCoordinators"], at: pointer + "/renameCoordinators", reader)
        var routes: [String: [String: String]] = [:]
        for (coordinator, names) in reader.namedPairs(members["renameRoutes"], at: pointer + "/renameRoutes") {
            routes[coordinator] = renames(names, at: Pointer.append(pointer + "/renameRoutes", coordinator), reader)
        }
        var removed: [String: [String: AppMigration.Landing]] = [:]
        for (coordinator, names) in reader.namedPairs(members["removeRoutes"], at: pointer + "/removeRoutes") {
            let at = Pointer.append(pointer + "/removeRoutes", coordinator)
            for (route, landing) in reader.namedPairs(names, at: at) {
                if let read = Self.landing(landing, at: Pointer.append(at, route), reader) {
                    removed[coordinator, default: [:]][route] = read
                }
            }
        }
        let data =
            reader.array(members["data"], at: pointer + "/data", "data steps")?.enumerated().compactMap {
                step($1, at: Pointer.append(pointer + "/data", $0), reader)
            } ?? []
        return MigrationDefinition(
            from: from, coordinators: coordinators, routes: routes, removed: removed, data: data, pointer: pointer)
    }

    private static func renames(_ value: JSONValue?, at pointer: String, _ reader: DefinitionReader) -> [String: String]
    {
        var renames: [String: String] = [:]
        for (old, new) in reader.namedPairs(value, at: pointer) {
            if let name = reader.name(new, at: Pointer.append(pointer, old), "new name") { renames[old] = name }
        }
        return renames
    }

    /// `below`, or `{"route": name, "input"?: value}`.
    private static func landing(
        _ value: JSONValue, at pointer: String, _ reader: DefinitionReader
    )
        -> AppMigration.Landing?
    {
        if value == "below" { return .below }
        guard
            let members = reader.object(
                value, at: pointer, "a landing", allowed: ["route", "input"], required: ["route"]),
            let route = reader.name(members["route"], at: pointer + "/route", "route name")
        else {
            if case .string = value {
                reader.error("invalidLanding", at: pointer, "a landing is 'below' or {\"route\": …}")
            }
            return nil
        }
        return .route(route, input: members["input"])
    }

    /// One data step: `{"rename": {"from", "to"}}`, `{"set": {"path", "value"}}`, `{"default": {"path", "value"}}`
    /// or `{"remove": path}`.
    private static func step(_ value: JSONValue, at pointer: String, _ reader: DefinitionReader) -> DataStep? {
        guard
            let members = reader.object(
                value, at: pointer, "a data step", allowed: ["rename", "set", "default", "remove"])
        else { return nil }
        guard members.count == 1, let (kind, body) = members.first else {
            reader.error("invalidDataStep", at: pointer, "a data step has exactly one of rename, set, default, remove")
            return nil
        }
        let at = Pointer.append(pointer, kind)
        switch kind {
        case "remove":
            return path(body, at: at, reader).map { .remove($0) }
        case "rename":
            guard
                let fields = reader.object(
                    body, at: at, "a rename", allowed: ["from", "to"], required: ["from", "to"]),
                let from = path(fields["from"] ?? .null, at: at + "/from", reader),
                let to = path(fields["to"] ?? .null, at: at + "/to", reader)
            else { return nil }
            return .rename(from: from, to: to)
        default:
            guard
                let fields = reader.object(
                    body, at: at, Article.withIndefinite(kind), allowed: ["path", "value"], required: ["path", "value"]),
                let path = path(fields["path"] ?? .null, at: at + "/path", reader), let value = fields["value"]
            else { return nil }
            return kind == "set" ? .set(path, value) : .setDefault(path, value)
        }
    }

    /// A dotted path of names (`settings.theme`).
    private static func path(_ value: JSONValue, at pointer: String, _ reader: DefinitionReader) -> [String]? {
        guard let text = reader.string(value, at: pointer, "data path") else { return nil }
        let keys = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !keys.isEmpty, keys.allSatisfy({ !$0.isEmpty }) else {
            reader.error(
                "invalidPath", at: pointer, "'\(text)' is not a data path",
                suggestion: "write keys with dots: settings.theme")
            return nil
        }
        return keys
    }
}

extension DefinitionReader {
    /// The members of an object keyed by names, in name order; a key that is not a name is reported.
    func namedPairs(_ value: JSONValue?, at pointer: String) -> [(String, JSONValue)] {
        named(value, at: pointer, "names") { name, member, _ in (name, member) }
    }
}
