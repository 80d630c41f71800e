import Foundation

/// Encodes `Encodable` values straight into a ``JSONValue``, with `JSONEncoder`'s default output.
///
/// `JSONValue(encoding:)` used to run `JSONEncoder` and parse its bytes back: two passes and a `Data` for every
/// route input and every coordinator's saved data. This builds the value in one pass. The few types `JSONEncoder`
/// writes in its own way (`Data`, `URL`, `Decimal`, `Float`) are left to it: ``encode(_:)`` throws
/// ``NeedsFoundation`` for them and `JSONValue(encoding:)` falls back.
public struct JSONValueEncoder: Sendable {
    /// An encoder.
    public init() {}

    /// Thrown for a value `JSONEncoder` writes in a way of its own; encode it with `JSONEncoder` instead.
    public struct NeedsFoundation: Error {}

    /// The JSON value of `value`.
    public func encode(_ value: some Encodable) throws -> JSONValue {
        try EncodingNode.encode(value, path: []).finished(path: [])
    }
}

/// A value being built: filled in by one container, turned into a ``JSONValue`` at the end.
private final class EncodingNode {
    enum Content {
        case empty
        case value(JSONValue)
        case object([String: EncodingNode], order: [String])
        case array([EncodingNode])
    }

    var content = Content.empty

    init() {}
    init(_ value: JSONValue) { content = .value(value) }

    static func encode<Value: Encodable>(_ value: Value, path: [any CodingKey]) throws -> EncodingNode {
        switch value {
        case let json as JSONValue: return EncodingNode(json)
        case let string as String: return EncodingNode(.string(string))
        case let bool as Bool: return EncodingNode(.bool(bool))
        case let int as Int: return EncodingNode(.number(Double(int)))
        case let double as Double: return EncodingNode(try number(double, path: path))
        case is Data, is URL, is Decimal, is Float: throw JSONValueEncoder.NeedsFoundation()
        default:
            let node = EncodingNode()
            try value.encode(to: NodeEncoder(node: node, codingPath: path))
            return node
        }
    }

    static func number(_ value: Double, path: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: path, debugDescription: "Unable to encode \(value) directly in JSON."))
        }
        return .number(value)
    }

    func finished(path: [any CodingKey]) throws -> JSONValue {
        switch content {
        case .empty:
            throw EncodingError.invalidValue(
                "", .init(codingPath: path, debugDescription: "Top-level value did not encode any values."))
        case .value(let value): return value
        case .object(let members, _): return .object(try members.mapValues { try $0.finishedMember() })
        case .array(let elements): return .array(try elements.map { try $0.finishedMember() })
        }
    }

    /// A member or element that encoded nothing is `{}`, as `JSONEncoder` writes it.
    private func finishedMember() throws -> JSONValue {
        if case .empty = content { return .object([:]) }
        return try finished(path: [])
    }

    func set(_ key: String, _ node: EncodingNode) {
        guard case .object(var members, var order) = content else { return }
        content = .empty
        if members.updateValue(node, forKey: key) == nil { order.append(key) }
        content = .object(members, order: order)
    }

    func append(_ node: EncodingNode) {
        guard case .array(var elements) = content else { return }
        content = .empty
        elements.append(node)
        content = .array(elements)
    }

    func makeObject() {
        if case .object = content { return }
        content = .object([:], order: [])
    }

    func makeArray() {
        if case .array = content { return }
        content = .array([])
    }

    var count: Int {
        if case .array(let elements) = content { return elements.count }
        return 0
    }
}

private struct NodeEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(node: node, codingPath: codingPath)
    }
}

private struct IndexKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(intValue: Int) {
        self.intValue = intValue
        stringValue = String(intValue)
    }
    init?(stringValue: String) { nil }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.set(key.stringValue, EncodingNode(.null)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        node.set(key.stringValue, EncodingNode(.bool(value)))
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        node.set(key.stringValue, EncodingNode(.string(value)))
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        node.set(key.stringValue, EncodingNode(try EncodingNode.number(value, path: codingPath + [key])))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        node.set(key.stringValue, EncodingNode(.number(Double(value))))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws { throw JSONValueEncoder.NeedsFoundation() }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        node.set(key.stringValue, EncodingNode(.number(Double(value))))
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        node.set(key.stringValue, EncodingNode(.number(Double(value))))
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        node.set(key.stringValue, try EncodingNode.encode(value, path: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodingNode()
        child.makeObject()
        node.set(key.stringValue, child)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = EncodingNode()
        child.makeArray()
        node.set(key.stringValue, child)
        return UnkeyedContainer(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodingNode()
        node.set("super", child)
        return NodeEncoder(node: child, codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = EncodingNode()
        node.set(key.stringValue, child)
        return NodeEncoder(node: child, codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var count: Int { node.count }

    private var nextPath: [any CodingKey] { codingPath + [IndexKey(intValue: count)] }

    mutating func encodeNil() throws { node.append(EncodingNode(.null)) }
    mutating func encode(_ value: Bool) throws { node.append(EncodingNode(.bool(value))) }
    mutating func encode(_ value: String) throws { node.append(EncodingNode(.string(value))) }
    mutating func encode(_ value: Double) throws {
        node.append(EncodingNode(try EncodingNode.number(value, path: nextPath)))
    }
    mutating func encode(_ value: Int) throws { node.append(EncodingNode(.number(Double(value)))) }
    mutating func encode(_ value: Float) throws { throw JSONValueEncoder.NeedsFoundation() }
    mutating func encode(_ value: Int8) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int16) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int32) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int64) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt) throws { node.append(EncodingNode(.number(Double(value)))) }
    mutating func encode(_ value: UInt8) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt16) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt32) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt64) throws { node.append(EncodingNode(.number(Double(value)))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        node.append(try EncodingNode.encode(value, path: nextPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodingNode()
        child.makeObject()
        let path = nextPath
        node.append(child)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = EncodingNode()
        child.makeArray()
        let path = nextPath
        node.append(child)
        return UnkeyedContainer(node: child, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodingNode()
        let path = nextPath
        node.append(child)
        return NodeEncoder(node: child, codingPath: path)
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .value(.null) }
    mutating func encode(_ value: Bool) throws { node.content = .value(.bool(value)) }
    mutating func encode(_ value: String) throws { node.content = .value(.string(value)) }
    mutating func encode(_ value: Double) throws {
        node.content = .value(try EncodingNode.number(value, path: codingPath))
    }
    mutating func encode(_ value: Int) throws { node.content = .value(.number(Double(value))) }
    mutating func encode(_ value: Float) throws { throw JSONValueEncoder.NeedsFoundation() }
    mutating func encode(_ value: Int8) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int16) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int32) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int64) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt) throws { node.content = .value(.number(Double(value))) }
    mutating func encode(_ value: UInt8) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt16) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt32) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt64) throws { node.content = .value(.number(Double(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        node.content = try EncodingNode.encode(value, path: codingPath).content
    }
}
