/// A statement parameter, sent in PostgreSQL's binary format.
enum PostgresValue {
    case text(String)
    case bytes([UInt8])
    case integer(Int)
    case real(Double)
    case boolean(Bool)

    /// The type's OID (`pg_type`): what the statement declares for the parameter.
    var type: PostgresType {
        switch self {
        case .text: .text
        case .bytes: .bytea
        case .integer: .int8
        case .real: .float8
        case .boolean: .bool
        }
    }

    /// The binary encoding: network byte order for numbers, UTF-8 for text.
    var encoded: [UInt8] {
        switch self {
        case .text(let text): Array(text.utf8)
        case .bytes(let bytes): bytes
        case .integer(let value): Self.bigEndian(UInt64(bitPattern: Int64(value)))
        case .real(let value): Self.bigEndian(value.bitPattern)
        case .boolean(let value): [value ? 1 : 0]
        }
    }

    private static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }
}

/// The PostgreSQL types the store uses, by OID.
enum PostgresType: UInt32 {
    case bool = 16
    case bytea = 17
    case int8 = 20
    case text = 25
    case float8 = 701
}
