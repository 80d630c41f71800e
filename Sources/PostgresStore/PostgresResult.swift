internal import CPostgreSQL

/// The rows of a statement's result, in binary format, copied out of libpq's result (which is freed at once).
struct PostgresResult {
    /// Rows of columns; nil for SQL NULL.
    let rows: [[[UInt8]?]]
    /// Rows the statement changed (`UPDATE`, `DELETE`, `INSERT`).
    let affected: Int

    init(rows: [[[UInt8]?]], affected: Int) {
        self.rows = rows
        self.affected = affected
    }

    /// Reads a finished result: its rows, or the error it reports. Frees it.
    init(taking result: OpaquePointer) throws(PostgresError) {
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            break
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            let message =
                PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
                ?? String(cString: PQresultErrorMessage(result))
            let constraint = PQresultErrorField(result, Int32(UInt8(ascii: "n"))).map { String(cString: $0) }
            throw .server(state: state, message: message, constraint: constraint)
        }
        let columns = PQnfields(result)
        var rows: [[[UInt8]?]] = []
        for row in 0..<PQntuples(result) {
            rows.append(
                (0..<columns).map { column -> [UInt8]? in
                    guard PQgetisnull(result, row, column) == 0, let value = PQgetvalue(result, row, column) else {
                        return nil
                    }
                    let length = Int(PQgetlength(result, row, column))
                    return value.withMemoryRebound(to: UInt8.self, capacity: length) {
                        Array(UnsafeBufferPointer(start: $0, count: length))
                    }
                })
        }
        self.rows = rows
        affected = Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// Column `column` of row `row` as bytes (`bytea`, or `text`'s UTF-8); empty for NULL.
    func bytes(_ row: Int, _ column: Int) -> [UInt8] {
        rows[row][column] ?? []
    }

    func text(_ row: Int, _ column: Int) -> String {
        String(decoding: bytes(row, column), as: UTF8.self)
    }

    /// An `int8` column.
    func integer(_ row: Int, _ column: Int) -> Int {
        Int(Int64(bitPattern: Self.unsigned(bytes(row, column))))
    }

    /// A `float8` column.
    func real(_ row: Int, _ column: Int) -> Double {
        Double(bitPattern: Self.unsigned(bytes(row, column)))
    }

    /// A `bool` column.
    func boolean(_ row: Int, _ column: Int) -> Bool {
        bytes(row, column).first == 1
    }

    private static func unsigned(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
