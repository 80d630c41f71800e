/// A coordinator's id in the tree: unique within its engine and never reused; `n7` on the wire.
public typealias NodeID = TreeID<NodeTag>

/// An item's id: a root, tab or stack entry of a coordinator; unique within its engine; `i4` on the wire.
public typealias ItemID = TreeID<ItemTag>

/// What tells one kind of tree id from another: its wire prefix.
public protocol TreeIDTag: Sendable {
    /// The letter before the number on the wire.
    static var prefix: Character { get }
}

/// The tag of ``NodeID`` (`n…`).
public enum NodeTag: TreeIDTag {
    public static let prefix: Character = "n"
}

/// The tag of ``ItemID`` (`i…`).
public enum ItemTag: TreeIDTag {
    public static let prefix: Character = "i"
}

/// An id in the navigation tree: a number (node and item ids share one counter) and a kind (``NodeID``,
/// ``ItemID``), which the type keeps apart.
public struct TreeID<Tag: TreeIDTag>: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The number of the id.
    public let number: Int

    init(_ number: Int) {
        self.number = number
    }

    /// Parses the wire form (`n7`, `i4`): the kind's letter, then digits without a sign or a leading zero; nil
    /// for anything else.
    public init?(_ text: String) {
        let utf8 = text.utf8
        guard utf8.count >= 2, utf8.count <= 19, let prefix = Tag.prefix.asciiValue, utf8.first == prefix else {
            return nil
        }
        let digits = utf8.dropFirst()
        guard digits.first != UInt8(ascii: "0") || digits.count == 1 else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        number = value
    }

    public var description: String { String(Tag.prefix) + String(number) }

    public static func < (lhs: TreeID, rhs: TreeID) -> Bool { lhs.number < rhs.number }
}
