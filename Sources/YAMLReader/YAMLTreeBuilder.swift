import SwitchyardJSON

/// Builds a JSON value from a YAML parser's events, one at a time, without recursion: a stack of the mappings and
/// sequences open, each bound checked as its event arrives.
struct YAMLTreeBuilder {
    private enum Frame {
        case sequence([JSONValue])
        /// A mapping's members so far, and its key waiting for a value.
        case mapping([String: JSONValue], key: String?)
    }

    private let limits: JSONLimits
    private var frames: [Frame] = []
    private var nodes = 0
    /// The finished top-level value.
    private(set) var root: JSONValue?

    init(limits: JSONLimits) {
        self.limits = limits
    }

    /// Whether the next scalar is a mapping's key.
    var expectsKey: Bool {
        if case .mapping(_, key: nil)? = frames.last { return true }
        return false
    }

    /// Where the next value goes, as a JSON Pointer.
    var pointer: String {
        var tokens: [String] = []
        for frame in frames {
            switch frame {
            case .sequence(let elements): tokens.append(String(elements.count))
            case .mapping(_, let key): if let key { tokens.append(key) }
            }
        }
        return tokens.map { "/" + JSONPointer.escaped($0) }.joined()
    }

    /// A mapping's key.
    mutating func key(_ text: String) -> YAMLFailure.Reason? {
        guard text.utf8.count <= limits.maxStringBytes else { return .limit(.stringBytes(limits.maxStringBytes)) }
        guard case .mapping(let members, key: nil)? = frames.last else { return .keyNotScalar }
        guard members[text] == nil else { return .duplicateKey(text) }
        frames[frames.count - 1] = .mapping(members, key: text)
        return nil
    }

    /// A scalar value.
    mutating func scalar(_ value: JSONValue) -> YAMLFailure.Reason? {
        if case .string(let text) = value, text.utf8.count > limits.maxStringBytes {
            return .limit(.stringBytes(limits.maxStringBytes))
        }
        if let failure = count() { return failure }
        place(value)
        return nil
    }

    /// A sequence or mapping begins.
    mutating func open(mapping: Bool) -> YAMLFailure.Reason? {
        if let failure = count() { return failure }
        guard frames.count < limits.maxDepth else { return .limit(.depth(limits.maxDepth)) }
        frames.append(mapping ? .mapping([:], key: nil) : .sequence([]))
        return nil
    }

    /// The innermost sequence or mapping ends.
    mutating func close() {
        guard let frame = frames.popLast() else { return }
        switch frame {
        case .sequence(let elements): place(.array(elements))
        case .mapping(let members, _): place(.object(members))
        }
    }

    private mutating func count() -> YAMLFailure.Reason? {
        nodes += 1
        return nodes > limits.maxNodes ? .limit(.nodes(limits.maxNodes)) : nil
    }

    private mutating func place(_ value: JSONValue) {
        switch frames.popLast() {
        case .sequence(var elements)?:
            elements.append(value)
            frames.append(.sequence(elements))
        case .mapping(var members, let key?)?:
            members[key] = value
            frames.append(.mapping(members, key: nil))
        case .mapping(let members, key: nil)?:
            frames.append(.mapping(members, key: nil))  // a key comes through key(_:), never here
        case nil:
            root = value
        }
    }
}
