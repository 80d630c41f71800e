import SwitchyardJSON

/// How the stores keep a reply's headers and a history entry's visible path in a text column: as JSON
/// (`[["name","value"],…]` and `["a","b"]`). One encoding for every store, read back the same way.
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

    /// A visible path read back from its JSON.
    public static func path(_ json: String) -> [String] {
        guard case .array(let items)? = try? JSONValue(parsing: Array(json.utf8)) else { return [] }
        return items.compactMap(\.stringValue)
    }
}
