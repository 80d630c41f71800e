/// An ordered list of HTTP header fields with case-insensitive lookup.
///
/// Every field is kept, including repeated names, in the order received.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field: its name as received and its value.
    public typealias Element = (name: String, value: String)

    private var fields: [Element]

    /// Creates headers from fields in order; repeated names are kept.
    public init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// Creates headers from a literal such as `["Content-Type": "text/plain"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The value of the field `name` (case-insensitive), or nil if absent.
    ///
    /// When the name occurs more than once, the values are joined with `", "` as RFC 9110 allows;
    /// use ``values(for:)`` to get them one by one.
    public subscript(name: String) -> String? {
        var found: String?
        for field in fields where Self.equalNames(field.name, name) {
            if let previous = found {
                found = previous + ", " + field.value
            } else {
                found = field.value
            }
        }
        return found
    }

    /// Every value of the field `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.equalNames($0.name, name) }.map(\.value)
    }

    /// Whether a field named `name` (case-insensitive) is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.equalNames($0.name, name) }
    }

    /// The number of fields, repeated names counted each time.
    public var count: Int { fields.count }

    /// Appends a field, keeping any existing field of the same name.
    public mutating func add(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces all fields named `name` (case-insensitive) by one field with `value`.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        add(name: name, value: value)
    }

    /// Removes all fields named `name` (case-insensitive).
    public mutating func remove(name: String) {
        fields.removeAll { Self.equalNames($0.name, name) }
    }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Element]> {
        fields.makeIterator()
    }

    static func equalNames(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8
        let right = rhs.utf8
        guard left.count == right.count else { return false }
        for (a, b) in zip(left, right) where a != b {
            guard lowercase(a) == lowercase(b) else { return false }
        }
        return true
    }

    /// Whether `name` is a valid field name: one or more token characters (RFC 9110 §5.6.2).
    static func isToken(_ name: String) -> Bool {
        guard !name.utf8.isEmpty else { return false }
        return name.utf8.allSatisfy { tokenCharacters[Int($0)] }
    }

    private static let tokenCharacters: [Bool] = (0..<256).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default: "!#$%&'*+-.^_`|~".utf8.contains(UInt8(byte))
        }
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        (byte >= 65 && byte <= 90) ? byte + 32 : byte
    }
}
