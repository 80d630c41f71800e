import Switchyard

/// How the stores keep a reply's headers, a history entry's visible path and its lifecycle in text columns: as JSON
/// (`[["name","value"],…]`, `["a","b"]`, `{"started":[{"id","type"}…],"finished":[…],"redirected"?:{…}}`). One
/// encoding for every store, read back the same way (a member it does not know is left out: older rows read as
/// before).
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

    /// The coordinators a change started and finished, and the guarded route it is the redirect for, as JSON; nil
    /// when it has none of these (the column stays empty).
    public static func lifecycle(
        started: [CoordinatorReference], finished: [CoordinatorReference], redirected: PendingRoute? = nil
    ) -> String? {
        guard !started.isEmpty || !finished.isEmpty || redirected != nil else { return nil }
        func list(_ references: [CoordinatorReference]) -> JSONValue {
            .array(references.map { ["id": .string($0.id.description), "type": .string($0.type)] })
        }
        var members: [String: JSONValue] = ["started": list(started), "finished": list(finished)]
        if let redirected { members["redirected"] = redirected.json }
        return JSONValue.object(members).jsonString
    }

    /// The coordinators started and finished and the redirect, read back from their JSON (none for an empty column).
    public static func lifecycle(
        _ json: String?
    ) -> (started: [CoordinatorReference], finished: [CoordinatorReference], redirected: PendingRoute?) {
        guard let json, case .object(let members)? = try? JSONValue(parsing: Array(json.utf8)) else {
            return ([], [], nil)
        }
        func list(_ name: String) -> [CoordinatorReference] {
            guard case .array(let items)? = members[name] else { return [] }
            return items.compactMap { item in
                guard let id = item["id"]?.stringValue.flatMap(NodeID.init), let type = item["type"]?.stringValue
                else { return nil }
                return CoordinatorReference(id: id, type: type)
            }
        }
        return (list("started"), list("finished"), members["redirected"].flatMap(PendingRoute.init(json:)))
    }

    /// A visible path read back from its JSON.
    public static func path(_ json: String) -> [String] {
        guard case .array(let items)? = try? JSONValue(parsing: Array(json.utf8)) else { return [] }
        return items.compactMap(\.stringValue)
    }
}
