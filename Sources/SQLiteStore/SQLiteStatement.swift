internal import CSQLite

/// A value bound to a statement parameter.
enum SQLiteValue {
    case integer(Int)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null
}

/// A compiled statement: bind, step through rows, read columns, reset.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: OpaquePointer

    init(_ handle: OpaquePointer, connection: OpaquePointer) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Resets the statement and binds `values` to its parameters in order.
    @discardableResult
    func bind(_ values: SQLiteValue...) throws(SQLiteError) -> SQLiteStatement {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .integer(let number): status = sqlite3_bind_int64(handle, index, Int64(number))
            case .real(let number): status = sqlite3_bind_double(handle, index, number)
            case .text(let text): status = sqlite3_bind_text(handle, index, text, -1, csqlite_transient())
            case .blob(let bytes):
                status = bytes.withUnsafeBytes {
                    sqlite3_bind_blob(
                        handle, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count),
                        csqlite_transient())
                }
            case .null: status = sqlite3_bind_null(handle, index)
            }
            guard status == SQLITE_OK else { throw SQLiteError(code: status, connection: connection) }
        }
        return self
    }

    /// Advances to the next row; false when there is none (the statement is done).
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        let status = sqlite3_step(handle)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            sqlite3_reset(handle)
            throw SQLiteError(code: status, connection: connection)
        }
    }

    /// Runs a statement that returns no rows, then resets it.
    func run() throws(SQLiteError) {
        defer { sqlite3_reset(handle) }
        try step()
    }

    /// Resets the statement so its locks are released (after reading what was needed).
    func reset() {
        sqlite3_reset(handle)
    }

    func integer(_ column: Int32) -> Int {
        Int(sqlite3_column_int64(handle, column))
    }

    /// The column's integer, or nil when it is NULL.
    func optionalInteger(_ column: Int32) -> Int? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : integer(column)
    }

    func real(_ column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: pointer)
    }

    /// Reads the column's bytes (text or blob) in place: `body` must not keep them (they are valid until the
    /// statement steps or resets).
    func withBytes<Result>(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let pointer = sqlite3_column_blob(handle, column)
        return body(
            UnsafeRawBufferPointer(
                start: pointer, count: pointer == nil ? 0 : Int(sqlite3_column_bytes(handle, column))))
    }

    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
