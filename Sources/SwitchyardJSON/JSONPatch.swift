/// JSON Patch (RFC 6902): the operations that turn one JSON value into another, and applying them.
///
/// ``diff(from:to:testing:)-([UInt8],_,_)`` compares two JSON texts on their bytes: objects member by member (in
/// their order), arrays after their common beginning and end (so a pushed or popped element is one `add` or
/// `remove`), and replaces whatever else differs, or a whole subtree when that is shorter. That is not always the
/// shortest patch, but it is exact, deterministic and cheap, and it keeps member order: a client that appends added
/// members rebuilds the new text byte for byte.
public enum JSONPatch {
    /// The patch that turns the JSON text `old` into `new`: a JSON array of `{"op", "path", "value"?}` objects,
    /// starting with a `test` operation for each of `tests` (what the receiver must hold for the patch to apply).
    /// Both texts must be valid JSON.
    public static func diff(
        from old: [UInt8], to new: [UInt8], testing tests: [(pointer: String, value: JSONValue)] = []
    ) -> [UInt8] {
        diff(from: IndexedJSONText(old), to: IndexedJSONText(new), testing: tests)
    }

    /// ``diff(from:to:testing:)-([UInt8],_,_)`` of texts that keep what they learn of their structure: diffing a
    /// text again (the next version against this one) does not read it again.
    public static func diff(
        from old: IndexedJSONText, to new: IndexedJSONText, testing tests: [(pointer: String, value: JSONValue)] = []
    ) -> [UInt8] {
        let (oldEnds, newEnds) = (old.containerEnds, new.containerEnds)
        return old.bytes.withUnsafeBufferPointer { oldBytes in
            new.bytes.withUnsafeBufferPointer { newBytes in
                var diff = JSONTextDiff(old: oldBytes, oldEnds, new: newBytes, newEnds)
                for test in tests { diff.test(test.pointer, test.value) }
                return diff.patch()
            }
        }
    }

    /// The operations that turn `old` into `new` (compared as their texts with sorted keys); empty when equal.
    public static func diff(from old: JSONValue, to new: JSONValue) -> JSONValue {
        (try? JSONValue(parsing: diff(from: old.serialized(), to: new.serialized()))) ?? .array([])
    }

    /// Why a patch could not be applied.
    public struct ApplyError: Error, Equatable, CustomStringConvertible {
        /// What went wrong, naming the operation's path.
        public let description: String
    }

    /// Applies `test`, `add`, `remove` and `replace` operations (what the diffs write) to `value`; a `test` whose
    /// value differs refuses the whole patch.
    public static func apply(_ patch: JSONValue, to value: JSONValue) throws(ApplyError) -> JSONValue {
        guard case .array(let operations) = patch else { throw ApplyError(description: "a patch is an array") }
        var result = value
        for operation in operations {
            guard let op = operation["op"]?.stringValue, let path = operation["path"]?.stringValue else {
                throw ApplyError(description: "an operation needs 'op' and 'path'")
            }
            let tokens = try pointer(path)
            switch op {
            case "add", "replace":
                guard let member = operation["value"] else { throw ApplyError(description: "\(op) \(path): no value") }
                try change(&result, at: tokens[...], path: path) { (target, token) throws(ApplyError) in
                    try set(&target, token, member, inserting: op == "add", path: path)
                }
            case "remove":
                try change(&result, at: tokens[...], path: path) { (target, token) throws(ApplyError) in
                    try remove(&target, token, path: path)
                }
            case "test":
                guard let expected = operation["value"] else { throw ApplyError(description: "test \(path): no value") }
                try change(&result, at: tokens[...], path: path) { (target, token) throws(ApplyError) in
                    let found = token.flatMap { token in
                        switch target {
                        case .object(let members): members[token]
                        case .array(let elements):
                            Int(token).flatMap { elements.indices.contains($0) ? elements[$0] : nil }
                        default: nil
                        }
                    }
                    guard (token == nil ? target : found) == expected else {
                        throw ApplyError(description: "test \(path): the value differs")
                    }
                }
            default:
                throw ApplyError(description: "unsupported operation '\(op)'")
            }
        }
        return result
    }

    private static func pointer(_ path: String) throws(ApplyError) -> [String] {
        if path.isEmpty { return [] }
        guard path.first == "/" else { throw ApplyError(description: "'\(path)' is not a JSON Pointer") }
        return path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// Walks to the parent of the last token and runs `body` on it (the whole value for the empty path).
    private static func change(
        _ value: inout JSONValue, at tokens: ArraySlice<String>, path: String,
        _ body: (inout JSONValue, String?) throws(ApplyError) -> Void
    ) throws(ApplyError) {
        guard let first = tokens.first else { return try body(&value, nil) }
        if tokens.count == 1 { return try body(&value, first) }
        switch value {
        case .object(var members):
            guard var child = members[first] else { throw ApplyError(description: "\(path): no member '\(first)'") }
            members[first] = nil
            try change(&child, at: tokens.dropFirst(), path: path, body)
            members[first] = child
            value = .object(members)
        case .array(var elements):
            guard let index = Int(first), elements.indices.contains(index) else {
                throw ApplyError(description: "\(path): no element '\(first)'")
            }
            var child = elements[index]
            try change(&child, at: tokens.dropFirst(), path: path, body)
            elements[index] = child
            value = .array(elements)
        default:
            throw ApplyError(description: "\(path): '\(first)' is inside a scalar")
        }
    }

    private static func set(
        _ target: inout JSONValue, _ token: String?, _ member: JSONValue, inserting: Bool, path: String
    ) throws(ApplyError) {
        guard let token else {
            target = member
            return
        }
        switch target {
        case .object(var members):
            if !inserting, members[token] == nil { throw ApplyError(description: "\(path): nothing to replace") }
            members[token] = member
            target = .object(members)
        case .array(var elements):
            let index = token == "-" ? elements.count : Int(token) ?? -1
            if inserting, (0...elements.count).contains(index) {
                elements.insert(member, at: index)
            } else if !inserting, elements.indices.contains(index) {
                elements[index] = member
            } else {
                throw ApplyError(description: "\(path): index out of range")
            }
            target = .array(elements)
        default:
            throw ApplyError(description: "\(path): the parent is a scalar")
        }
    }

    private static func remove(_ target: inout JSONValue, _ token: String?, path: String) throws(ApplyError) {
        switch (target, token) {
        case (.object(var members), let token?) where members[token] != nil:
            members[token] = nil
            target = .object(members)
        case (.array(var elements), let token?) where Int(token).map(elements.indices.contains) == true:
            elements.remove(at: Int(token) ?? 0)
            target = .array(elements)
        default:
            throw ApplyError(description: "\(path): nothing to remove")
        }
    }
}
