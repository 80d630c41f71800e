/// JSON Patch (RFC 6902): the operations that turn one JSON value into another, and applying them.
///
/// ``diff(from:to:)`` compares objects member by member and arrays position by position (elements added or
/// removed at the end), and replaces whatever else differs. That is not the shortest patch for an element inserted
/// in the middle of an array, but it is exact, deterministic (members in sorted order) and cheap.
public enum JSONPatch {
    /// The operations that turn `old` into `new`, as a JSON array of `{"op", "path", "value"?}` objects; empty
    /// when they are equal.
    public static func diff(from old: JSONValue, to new: JSONValue) -> JSONValue {
        var operations: [JSONValue] = []
        diff(old, new, path: "", into: &operations)
        return .array(operations)
    }

    private static func diff(_ old: JSONValue, _ new: JSONValue, path: String, into operations: inout [JSONValue]) {
        guard old != new else { return }
        switch (old, new) {
        case (.object(let before), .object(let after)):
            for key in before.keys.sorted() where after[key] == nil {
                operations.append(["op": "remove", "path": .string(path + "/" + escape(key))])
            }
            for key in after.keys.sorted() {
                let member = path + "/" + escape(key)
                if let previous = before[key] {
                    diff(previous, after[key] ?? .null, path: member, into: &operations)
                } else {
                    operations.append(["op": "add", "path": .string(member), "value": after[key] ?? .null])
                }
            }
        case (.array(let before), .array(let after)):
            let common = min(before.count, after.count)
            for index in 0..<common {
                diff(before[index], after[index], path: path + "/" + String(index), into: &operations)
            }
            for index in stride(from: before.count - 1, through: after.count, by: -1) {
                operations.append(["op": "remove", "path": .string(path + "/" + String(index))])
            }
            for index in stride(from: before.count, to: after.count, by: 1) {
                operations.append(["op": "add", "path": .string(path + "/" + String(index)), "value": after[index]])
            }
        default:
            operations.append(["op": "replace", "path": .string(path), "value": new])
        }
    }

    /// A member name as a JSON Pointer token (RFC 6901): `~` is `~0`, `/` is `~1`.
    static func escape(_ key: String) -> String {
        guard key.contains(where: { $0 == "~" || $0 == "/" }) else { return key }
        return key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// Why a patch could not be applied.
    public struct ApplyError: Error, Equatable, CustomStringConvertible {
        /// What went wrong, naming the operation's path.
        public let description: String
    }

    /// Applies `add`, `remove` and `replace` operations (what ``diff(from:to:)`` writes) to `value`.
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
