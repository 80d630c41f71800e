import Switchyard

/// How the stores keep a reply's headers, a history entry's visible path and its lifecycle in text columns: as JSON
/// (`[["name","value"],…]`, `["a","b"]`, `{"started":[{"id","type"}…],"finished":[…]}`). One encoding for every
/// store, read back the same way.
public enum StoredText {
    /// Header pairs as JSON.
    public static func headers(_ pairs: [(String, String)]) -> String {
        JSONValue.array(pairs.map { .array([.string($0.0), .string($0.1)]) }).jsonString
    }

    /// Header pairs read back from their JSON (malformed entries are skipped).
    public static func headers(_ json: String) -> [(String, String)] {
        guard case .array(let items)? = try? JSONValue(parsing: Array(json.utf8)) else { return [] }
        return items.compactMap { item in
            guard case .array(let pair) = item, pair.count == 2, let name = pair[0].stringValue,
                let value = pair[1].stringValue
            else { return nil }
            return (name, value)
        }
    }

    /// A visible path as JSON.
    public static func path(_ routes: [String]) -> String {
        JSONValue.array(routes.map(JSONValue.string)).jsonString
    }

    /// The coordinators a change started and finished as JSON; nil when it did neither (the column stays empty).
    public static func lifecycle(started: [CoordinatorReference], finished: [CoordinatorReference]) -> String? {
        guard !started.isEmpty || !finished.isEmpty else { return nil }
        func list(_ references: [CoordinatorReference]) -> JSONValue {
            .array(references.map { ["id": .string($0.id.description), "type": .string($0.type)] })
        }
        return JSONValue.object(["started": list(started), "finished": list(finished)]).jsonString
    }

    /// The coordinators started and finished, read back from their JSON (none for an empty column).
    public static func lifecycle(_ json: String?) -> (started: [CoordinatorReference], finished: [CoordinatorReference])
    {
        guard let json, case .object(let members)? = try? JSONValue(parsing: Array(json.utf8)) else { return ([], []) }
        func list(_ name: String) -> [CoordinatorReference] {
            guard case .array(let items)? = members[name] else { return [] }
            return items.compactMap { item in
                guard let id = item["id"]?.stringValue.flatMap(NodeID.init), let type = item["type"]?.stringValue
                else { return nil }
                return CoordinatorReference(id: id, type: type)
            }
        }
        return (list("started"), list("finished"))
    }

    /// A visible path read back from its JSON.
    public static func path(_ json: String) -> [String] {
        guard case .array(let items)? = try? JSONValue(parsing: Array(json.utf8)) else { return [] }
        return items.compactMap(\.stringValue)
    }
}
