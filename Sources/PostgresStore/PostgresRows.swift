import SwitchyardJSON
import SwitchyardServer

/// Rows read back as the archive's values.
enum PostgresRows {
    /// A session row (`app, version, state, last_access, used`) and its replies' rows; nil when there is none.
    static func session(_ id: String, _ row: PostgresResult, replies: PostgresResult) -> StoredSession? {
        guard !row.rows.isEmpty else { return nil }
        var stored = StoredSession(
            id: id, app: row.text(0, 0), version: row.integer(0, 1), state: row.bytes(0, 2),
            lastAccess: row.real(0, 3), used: row.boolean(0, 4))
        stored.replies = replies.rows.indices.map { index in
            StoredReply(
                key: replies.text(index, 0), fingerprint: UInt64(bitPattern: Int64(replies.integer(index, 1))),
                session: id, status: replies.integer(index, 2), headers: headers(replies.text(index, 3)),
                body: replies.bytes(index, 4))
        }
        return stored
    }

    /// History rows (`version, time, source, request, visible_path`), without their states.
    static func changes(_ result: PostgresResult) -> [StoredChange] {
        result.rows.indices.map { row in
            StoredChange(
                version: result.integer(row, 0), time: result.real(row, 1), source: result.text(row, 2),
                request: result.bytes(row, 3), visiblePath: strings(result.text(row, 4)), state: [])
        }
    }

    /// `["a","b"]` → the strings.
    static func strings(_ json: String) -> [String] {
        guard case .array(let items)? = try? JSONValue(parsing: Array(json.utf8)) else { return [] }
        return items.compactMap(\.stringValue)
    }

    /// Header pairs as JSON, `[["name","value"],…]`, and back.
    static func headers(_ pairs: [(String, String)]) -> String {
        JSONValue.array(pairs.map { .array([.string($0.0), .string($0.1)]) }).jsonString
    }

    static func headers(_ json: String) -> [(String, String)] {
        guard case .array(let items)? = try? JSONValue(parsing: Array(json.utf8)) else { return [] }
        return items.compactMap { item in
            guard case .array(let pair) = item, pair.count == 2, let name = pair[0].stringValue,
                let value = pair[1].stringValue
            else { return nil }
            return (name, value)
        }
    }
}
