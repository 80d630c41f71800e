/// Decodes `Decodable` values from an already-parsed ``JSONValue``, with `JSONDecoder`'s rules and errors.
///
/// Requests are parsed once by the fast one-pass parser and then decoded from the value: this avoids the second,
/// much slower pass through `JSONDecoder` (which also builds and throws an error for every type it tries).
public struct JSONValueDecoder: Sendable {
    /// A decoder.
    public init() {}

    /// Decodes a value of `type` from `value`.
    public func decode<Value: Decodable>(_ type: Value.Type, from value: JSONValue) throws -> Value {
        try ValueDecoder(value: value, codingPath: []).decodeValue(type)
    }
}

/// A coding key for array positions and dictionary members.
private struct JSONKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func decodeValue<Value: Decodable>(_ type: Value.Type) throws -> Value {
        if type == JSONValue.self { return value as! Value }
        return try Value(from: self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw mismatch([String: JSONValue].self, codingPath, value)
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([JSONValue].self, codingPath, value) }
        return UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleContainer(value: value, codingPath: codingPath)
    }
}

private func mismatch(_ type: Any.Type, _ path: [any CodingKey], _ value: JSONValue) -> DecodingError {
    let found: String
    switch value {
    case .null: found = "null"
    case .bool: found = "a boolean"
    case .number: found = "a number"
    case .string: found = "a string"
    case .array: found = "an array"
    case .object: found = "an object"
    }
    return DecodingError.typeMismatch(
        type, .init(codingPath: path, debugDescription: "Expected to decode \(type) but found \(found) instead."))
}

/// Reads scalars with JSONDecoder's strictness: no conversions between strings, numbers and booleans.
private struct Scalars {
    static func bool(_ value: JSONValue, _ path: [any CodingKey]) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(Bool.self, path, value) }
        return flag
    }

    static func string(_ value: JSONValue, _ path: [any CodingKey]) throws -> String {
        guard case .string(let text) = value else { throw mismatch(String.self, path, value) }
        return text
    }

    static func double(_ value: JSONValue, _ path: [any CodingKey]) throws -> Double {
        guard case .number(let number) = value else { throw mismatch(Double.self, path, value) }
        return number
    }

    static func integer<Integer: FixedWidthInteger>(
        _ type: Integer.Type, _ value: JSONValue, _ path: [any CodingKey]
    )
        throws -> Integer
    {
        guard case .number(let number) = value else { throw mismatch(type, path, value) }
        guard number.rounded() == number, let integer = Integer(exactly: number) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: path, debugDescription: "Parsed JSON number <\(number)> does not fit in \(type)."))
        }
        return integer
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue).")
            )
        }
        return value
    }

    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try Scalars.bool(member(key), path(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try Scalars.string(member(key), path(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try Scalars.double(member(key), path(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        Float(try Scalars.double(member(key), path(key)))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try Scalars.integer(type, member(key), path(key))
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try Scalars.integer(type, member(key), path(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try Scalars.integer(type, member(key), path(key))
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try Scalars.integer(type, member(key), path(key))
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try Scalars.integer(type, member(key), path(key))
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try Scalars.integer(type, member(key), path(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try Scalars.integer(type, member(key), path(key))
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try Scalars.integer(type, member(key), path(key))
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try Scalars.integer(type, member(key), path(key))
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try Scalars.integer(type, member(key), path(key))
    }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        try ValueDecoder(value: member(key), codingPath: path(key)).decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try ValueDecoder(value: member(key), codingPath: path(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: member(key), codingPath: path(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: .object(members), codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: members[key.stringValue] ?? .null, codingPath: path(key))
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next<Value>(_ type: Value.Type) throws -> (JSONValue, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                .init(
                    codingPath: codingPath + [JSONKey(intValue: currentIndex)],
                    debugDescription: "Unkeyed container is at end."))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], codingPath + [JSONKey(intValue: currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        if elements[currentIndex] == .null {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let (value, path) = try next(type)
        return try Scalars.bool(value, path)
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let (value, path) = try next(type)
        return try Scalars.string(value, path)
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        let (value, path) = try next(type)
        return try Scalars.double(value, path)
    }

    mutating func decode(_ type: Int.Type) throws -> Int {
        let (value, path) = try next(type)
        return try Scalars.integer(type, value, path)
    }

    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        let (value, path) = try next(type)
        return try ValueDecoder(value: value, codingPath: path).decodeValue(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let (value, path) = try next([String: JSONValue].self)
        return try ValueDecoder(value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next([JSONValue].self)
        return try ValueDecoder(value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next(JSONValue.self)
        return ValueDecoder(value: value, codingPath: path)
    }
}

private struct SingleContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try Scalars.bool(value, codingPath) }
    func decode(_ type: String.Type) throws -> String { try Scalars.string(value, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try Scalars.double(value, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { Float(try Scalars.double(value, codingPath)) }
    func decode(_ type: Int.Type) throws -> Int { try Scalars.integer(type, value, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try Scalars.integer(type, value, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try Scalars.integer(type, value, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try Scalars.integer(type, value, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try Scalars.integer(type, value, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try Scalars.integer(type, value, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try Scalars.integer(type, value, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try Scalars.integer(type, value, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try Scalars.integer(type, value, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try Scalars.integer(type, value, codingPath) }

    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try ValueDecoder(value: value, codingPath: codingPath).decodeValue(type)
    }
}
