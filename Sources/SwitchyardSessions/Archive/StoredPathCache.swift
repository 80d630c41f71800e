#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The visible paths a store read back (``StoredText/path(_:)``), by the bytes of their JSON: sessions go through
/// the same few screens, so a page of journeys parses each path once, and a path met again is found from the
/// column's bytes without copying them. Holds at most ``capacity`` paths; past that, each is parsed.
public struct StoredPathCache {
    /// The most paths kept.
    public static let capacity = 4096
    private var known: [Key: [String]] = [:]

    /// An empty cache.
    public init() {}

    /// The path whose JSON is `bytes` (only read during the call).
    public mutating func path(_ bytes: UnsafeRawBufferPointer) -> [String] {
        if let found = known[.borrowed(bytes)] { return found }
        let path = StoredText.path(String(decoding: bytes, as: UTF8.self))
        if known.count < Self.capacity { known[.owned(Array(bytes))] = path }
        return path
    }

    /// The path whose JSON is `text`.
    public mutating func path(_ text: String) -> [String] {
        var text = text
        return text.withUTF8 { path(UnsafeRawBufferPointer($0)) }
    }

    /// A path's JSON: owned once kept, borrowed to look one up. Equal when the bytes are.
    private enum Key: Hashable {
        case owned([UInt8])
        case borrowed(UnsafeRawBufferPointer)

        func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            switch self {
            case .owned(let bytes): bytes.withUnsafeBytes(body)
            case .borrowed(let bytes): body(bytes)
            }
        }

        static func == (left: Key, right: Key) -> Bool {
            left.withBytes { left in
                right.withBytes { right in
                    guard left.count == right.count else { return false }
                    guard let first = left.baseAddress, let second = right.baseAddress else { return true }
                    return memcmp(first, second, left.count) == 0
                }
            }
        }

        func hash(into hasher: inout Hasher) {
            withBytes { hasher.combine(bytes: $0) }
        }
    }
}
