/// A coordinator's id in the tree: unique within its engine and never reused; `n7` on the wire.
public struct NodeID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The number of the id (node and item ids share one counter).
    public let number: Int

    init(_ number: Int) {
        self.number = number
    }

    /// Parses the wire form `n7`; nil for anything else.
    public init?(_ text: String) {
        guard let number = TreeID.number(text, prefix: UInt8(ascii: "n")) else { return nil }
        self.number = number
    }

    public var description: String { "n" + String(number) }

    public static func < (lhs: NodeID, rhs: NodeID) -> Bool { lhs.number < rhs.number }
}

/// An item's id: a root, tab or stack entry of a coordinator; unique within its engine; `i4` on the wire.
public struct ItemID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The number of the id (node and item ids share one counter).
    public let number: Int

    init(_ number: Int) {
        self.number = number
    }

    /// Parses the wire form `i4`; nil for anything else.
    public init?(_ text: String) {
        guard let number = TreeID.number(text, prefix: UInt8(ascii: "i")) else { return nil }
        self.number = number
    }

    public var description: String { "i" + String(number) }

    public static func < (lhs: ItemID, rhs: ItemID) -> Bool { lhs.number < rhs.number }
}

/// Parsing of the wire form of tree ids.
enum TreeID {
    /// The number after `prefix` in `text` (`n12` → 12): digits only, no sign, no leading zero.
    static func number(_ text: String, prefix: UInt8) -> Int? {
        let utf8 = text.utf8
        guard utf8.count >= 2, utf8.count <= 19, utf8.first == prefix else { return nil }
        let digits = utf8.dropFirst()
        guard digits.first != UInt8(ascii: "0") || digits.count == 1 else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
