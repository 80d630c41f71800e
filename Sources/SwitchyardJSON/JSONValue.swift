import Foundation

/// A JSON value: what route inputs, event payloads and documents are made of.
///
/// Route inputs are `Codable` Swift values; the engine keeps them as `JSONValue` so the navigation tree can be
/// encoded, compared and restored without knowing the Swift types.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The members, if this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// A member of an object; `nil` for other values or missing keys.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// Encodes a Swift value as JSON, as `JSONEncoder` would (in one pass: ``JSONValueEncoder``).
    public init(encoding value: some Encodable) throws {
        switch value {
        case let string as String: self = .string(string)
        case let int as Int: self = .number(Double(int))
        case let double as Double: self = .number(double)
        case let bool as Bool: self = .bool(bool)
        case let json as JSONValue: self = json
        default:
            do {
                self = try JSONValueEncoder().encode(value)
            } catch is JSONValueEncoder.NeedsFoundation {
                self = try JSONValue(parsing: JSONEncoder().encode(value))
            }
        }
    }

    /// Decodes this JSON as a Swift value (fast paths for strings, numbers and booleans).
    public func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        switch self {
        case .string(let string) where type == String.self: return string as! Value
        case .bool(let bool) where type == Bool.self: return bool as! Value
        case .number(let number) where type == Double.self: return number as! Value
        case .number(let number) where type == Int.self && number.rounded() == number && abs(number) < 1e15:
            return Int(number) as! Value
        default:
            return try JSONValueDecoder().decode(Value.self, from: self)
        }
    }

    /// Parses JSON text (strictly; errors are `DecodingError.dataCorrupted`, as from `JSONDecoder`).
    public init(parsing bytes: some Collection<UInt8>) throws {
        if let value = try bytes.withContiguousStorageIfAvailable({ try JSONParser.parse($0) }) {
            self = value
        } else {
            self = try Array(bytes).withUnsafeBufferPointer { try JSONParser.parse($0) }
        }
    }

    /// Parses JSON text within `limits`, checked as it reads: a text past one throws ``JSONLimitExceeded`` (with a
    /// pointer to where) before more of it is read or built; bad syntax throws as ``init(parsing:)`` does.
    public init(parsing bytes: some Collection<UInt8>, limits: JSONLimits) throws {
        if let value = try bytes.withContiguousStorageIfAvailable({ try JSONParser.parse($0, limits: limits) }) {
            self = value
        } else {
            self = try Array(bytes).withUnsafeBufferPointer { try JSONParser.parse($0, limits: limits) }
        }
    }

    /// The compact JSON text of this value, object keys sorted (deterministic).
    public func serialized() -> [UInt8] {
        var writer = JSONWriter()
        writer.value(self)
        return writer.bytes
    }

    /// The compact JSON text as a `String`.
    public var jsonString: String {
        String(decoding: serialized(), as: UTF8.self)
    }
}
