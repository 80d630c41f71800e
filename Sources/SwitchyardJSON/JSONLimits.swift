/// Bounds on what reading a JSON (or YAML) text may build, checked on the parser's own events as it reads: how deep
/// arrays and objects nest, how many values there are in all, how long a string (or a key) is. A text past a bound
/// is refused before the rest of it is read, so a small hostile file can neither exhaust a thread's stack nor
/// build a large tree.
public struct JSONLimits: Sendable, Hashable {
    /// The deepest nesting of arrays and objects (the top-level value is at depth 1).
    public var maxDepth: Int
    /// The most values (scalars, arrays and objects; keys not counted) in the whole text.
    public var maxNodes: Int
    /// The longest string or key, in UTF-8 bytes.
    public var maxStringBytes: Int

    /// Bounds of your choosing.
    public init(maxDepth: Int, maxNodes: Int, maxStringBytes: Int) {
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
        self.maxStringBytes = maxStringBytes
    }
}

/// A text that went past one of its ``JSONLimits``: which bound, and where (a JSON Pointer to the value that did).
public struct JSONLimitExceeded: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bound that was passed, with its value.
    public enum Bound: Sendable, Hashable {
        /// ``JSONLimits/maxDepth``.
        case depth(Int)
        /// ``JSONLimits/maxNodes``.
        case nodes(Int)
        /// ``JSONLimits/maxStringBytes``.
        case stringBytes(Int)
    }

    /// The bound that was passed.
    public let bound: Bound
    /// Where, as a JSON Pointer (RFC 6901): the value that went past the bound.
    public internal(set) var pointer: String

    /// A bound passed at `pointer`.
    public init(_ bound: Bound, at pointer: String) {
        self.bound = bound
        self.pointer = pointer
    }

    /// `nesting deeper than 64 levels at /a/0/b`.
    public var description: String {
        let what =
            switch bound {
            case .depth(let limit): "arrays and objects nest deeper than \(limit) levels"
            case .nodes(let limit): "it holds more than \(limit) values"
            case .stringBytes(let limit): "a string or key is longer than \(limit) bytes"
            }
        return "\(what) (at \(pointer.isEmpty ? "/" : pointer))"
    }

    /// The pointer with `token` put in front (as the parse unwinds from where the bound was passed).
    func within(_ token: String) -> JSONLimitExceeded {
        JSONLimitExceeded(bound, at: "/" + JSONPointer.escaped(token) + pointer)
    }
}
