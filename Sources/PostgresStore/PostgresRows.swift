import Foundation
import SwitchyardJSON
import SwitchyardSessions

/// Rows read back as the archive's values.
enum PostgresRows {
    /// A session row (`app, version, state, last_access, used, replies as JSON`); nil when there is none.
    static func session(_ id: String, _ row: PostgresResult) -> StoredSession? {
        guard !row.rows.isEmpty else { return nil }
        var stored = StoredSession(
            id: id, app: row.text(0, 0), version: row.integer(0, 1), state: row.bytes(0, 2),
            lastAccess: row.real(0, 3), used: row.boolean(0, 4))
        stored.replies = replies(of: id, row.bytes(0, 5))
        return stored
    }

    /// `[[key, fingerprint, status, headers, body in base64], …]` → the replies.
    static func replies(of session: String, _ json: [UInt8]) -> [StoredReply] {
        guard !json.isEmpty, case .array(let items)? = try? JSONValue(parsing: json) else { return [] }
        return items.compactMap { item in
            guard case .array(let fields) = item, fields.count == 5, let key = fields[0].stringValue,
                let fingerprint = fields[1].stringValue.flatMap(Int64.init), case .number(let status) = fields[2],
                let headers = fields[3].stringValue, let body = fields[4].stringValue.flatMap(base64)
            else { return nil }
            return StoredReply(
                key: key, fingerprint: UInt64(bitPattern: fingerprint), session: session, status: Int(status),
                headers: StoredText.headers(headers), body: body)
        }
    }

    /// PostgreSQL's `encode(…, 'base64')`, which breaks lines every 76 characters.
    private static func base64(_ text: String) -> [UInt8]? {
        Data(base64Encoded: text, options: .ignoreUnknownCharacters).map { Array($0) }
    }

    /// The state of `version` rebuilt from the rows of ``PostgresStatements/versionChain``: not kept, or damaged
    /// (a link of its chain missing or not applying).
    static func state(at version: Int, _ result: PostgresResult) -> StateDelta.Rebuilt {
        var stored: [Int: StateDelta.Stored] = [:]
        for row in result.rows.indices {
            let at = result.integer(row, 0)
            guard stored[at] == nil else { continue }  // a history entry before the session row's document
            let base = result.rows[row][2] == nil ? nil : result.integer(row, 2)
            stored[at] = StateDelta.Stored(bytes: result.rows[row][1] ?? [], base: base)
        }
        return StateDelta.rebuild(version) { stored[$0] }
    }

    /// Whether a session row (``session(_:_:)``) holds a delta rather than its document.
    static func holdsDelta(_ row: PostgresResult) -> Bool {
        !row.rows.isEmpty && row.rows[0].count > 8 && row.rows[0][6] != nil
    }

    /// The state of a session row that holds a delta, rebuilt from the entries the row brought along; nil when
    /// they do not make a whole chain.
    static func rebuiltState(of stored: StoredSession, _ row: PostgresResult) -> [UInt8]? {
        var chain: [Int: StateDelta.Stored] = [
            stored.version: .delta(StateDelta(base: row.integer(0, 6), bytes: row.bytes(0, 2)))
        ]
        if let initial = row.rows[0][8], !initial.isEmpty { chain[0] = .whole(initial) }
        if let json = row.rows[0][7], case .array(let entries)? = try? JSONValue(parsing: json) {
            for entry in entries {
                guard case .array(let fields) = entry, fields.count == 3, case .number(let version) = fields[0],
                    let bytes = fields[2].stringValue.flatMap(base64)
                else { return nil }
                let base: Int? = if case .number(let base) = fields[1] { Int(base) } else { nil }
                chain[Int(version)] = StateDelta.Stored(bytes: bytes, base: base)
            }
        }
        return StateDelta.rebuild(stored.version) { chain[$0] }.document
    }

    /// History rows (`version, time, source, request, visible_path, lifecycle`), without their states.
    static func changes(_ result: PostgresResult) -> [StoredChange] {
        result.rows.indices.map { row in
            let lifecycle = StoredText.lifecycle(result.text(row, 5))
            return StoredChange(
                version: result.integer(row, 0), time: result.real(row, 1),
                source: HistorySource(stored: result.text(row, 2)),
                request: result.bytes(row, 3), visiblePath: StoredText.path(result.text(row, 4)), state: [],
                started: lifecycle.started, finished: lifecycle.finished, redirected: lifecycle.redirected)
        }
    }
}
