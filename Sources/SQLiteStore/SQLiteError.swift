internal import CSQLite
import SwitchyardSessions

/// An error SQLite reported: its result code and message.
struct SQLiteError: Error, CustomStringConvertible {
    /// The extended result code.
    let code: Int32
    let message: String

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    init(code: Int32, connection: OpaquePointer?) {
        self.code = code
        message =
            connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
    }

    /// The primary result code (`SQLITE_FULL`, `SQLITE_CORRUPT`, …).
    var primary: Int32 { code & 0xff }

    /// Whether the data cannot be read as a database (corrupt, or not a database file at all).
    var isUnreadable: Bool { primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB }

    var description: String { "\(message) (SQLite error \(code))" }

    /// Not SQLite's: a write found the session stored otherwise than it expected (``ArchiveError/conflict(_:)``).
    static func conflict(_ message: String) -> SQLiteError { SQLiteError(code: conflictCode, message: message) }

    private static let conflictCode: Int32 = -1

    /// What the server makes of it: unreadable data, a write conflict, or a store that is unavailable for now
    /// (full disk, I/O).
    var archiveError: ArchiveError {
        if code == Self.conflictCode { return .conflict(message) }
        return isUnreadable ? .unreadable(description) : .unavailable(description)
    }
}
