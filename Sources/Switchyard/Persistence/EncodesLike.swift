/// Data that can tell, without being encoded, that it encodes exactly as another value does: a persistent
/// coordinator whose ``PersistentCoordinator/PersistentState`` conforms has its data encoded again only when it
/// changed (every change writes a restore document, and most leave the data as it was).
///
/// Conform only a value type all the way down (no class instance inside: the value kept would be the instance that
/// is changed in place), and compare what `Codable` writes exactly: strings by their UTF-8 bytes (Swift's `==`
/// takes `"é"` precomposed and decomposed as equal, and they encode differently), numbers by their bits, every
/// stored property the encoding writes. `JSONValue` (the data of apps declared as files), arrays, optionals and
/// the standard scalar types conform.
public protocol EncodesLike {
    /// Whether `self` and `other` encode to the same bytes.
    func encodesLike(_ other: Self) -> Bool
}

extension String: EncodesLike {
    public func encodesLike(_ other: String) -> Bool { utf8.elementsEqual(other.utf8) }
}

extension Bool: EncodesLike {
    public func encodesLike(_ other: Bool) -> Bool { self == other }
}

extension Int: EncodesLike {
    public func encodesLike(_ other: Int) -> Bool { self == other }
}

extension Double: EncodesLike {
    public func encodesLike(_ other: Double) -> Bool { bitPattern == other.bitPattern }
}

extension Array: EncodesLike where Element: EncodesLike {
    /// Arrays that share their storage (one is a copy of the other, neither changed since) hold the same values, so
    /// they encode alike without comparing them: the usual case of data kept from the last document and read again.
    public func encodesLike(_ other: [Element]) -> Bool {
        guard count == other.count else { return false }
        let shared = withUnsafeBufferPointer { mine in
            other.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress }
        }
        return shared || zip(self, other).allSatisfy { $0.encodesLike($1) }
    }
}

extension Optional: EncodesLike where Wrapped: EncodesLike {
    public func encodesLike(_ other: Wrapped?) -> Bool {
        switch (self, other) {
        case (nil, nil): true
        case (let value?, let other?): value.encodesLike(other)
        default: false
        }
    }
}

extension JSONValue: EncodesLike {
    public func encodesLike(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)): a.encodesLike(b)
        case (.array(let a), .array(let b)): a.encodesLike(b)
        case (.object(let a), .object(let b)):
            a.count == b.count
                && a.allSatisfy { key, value in
                    // A key that only compares equal (another normalization) is written differently.
                    guard let index = b.index(forKey: key) else { return false }
                    return b[index].key.encodesLike(key) && b[index].value.encodesLike(value)
                }
        default: false
        }
    }
}
