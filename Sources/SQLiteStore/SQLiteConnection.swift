internal import CSQLite

/// One connection to a SQLite database file. Not thread-safe: each connection is used by one thread at a time.
final class SQLiteConnection {
    fileprivate let handle: OpaquePointer

    /// Opens (and, unless `readOnly`, creates) the database at `path`.
    init(path: String, readOnly: Bool = false) throws(SQLiteError) {
        var connection: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &connection, flags, nil)
        guard status == SQLITE_OK, let connection else {
            let error = SQLiteError(code: status, connection: connection)
            sqlite3_close_v2(connection)
            throw error
        }
        handle = connection
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw SQLiteError(code: status, connection: handle) }
    }

    /// Compiles a statement.
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw SQLiteError(code: status, connection: handle) }
        return SQLiteStatement(statement, connection: handle)
    }

    /// The first column of the first row of `sql`, as text (for pragmas).
    func text(_ sql: String) throws(SQLiteError) -> String? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.text(0)
    }

    /// The first column of the first row of `sql`, as an integer (for pragmas and counts).
    func integer(_ sql: String) throws(SQLiteError) -> Int {
        let statement = try prepare(sql)
        guard try statement.step() else { return 0 }
        return statement.integer(0)
    }

    /// Whether a transaction is open (false after SQLite rolled one back by itself, e.g. on a full disk).
    var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}

extension SQLiteConnection {
    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }
}
