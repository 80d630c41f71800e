import Switchyard

/// A JSON value that keeps its members in order and its scalars as written, so that writing it back gives the text
/// it was read from byte for byte (compact text). Applies JSON Patch operations the way an order-preserving client
/// does (`add` appends a member), independently of the server's diff: what the patch round trip is checked with.
indirect enum OrderedJSON: Equatable {
    case scalar([UInt8])
    case array([OrderedJSON])
    case object([(key: String, value: OrderedJSON)])

    static func == (lhs: OrderedJSON, rhs: OrderedJSON) -> Bool {
        lhs.text == rhs.text
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads compact JSON text (as the server writes it).
    init(text: [UInt8]) throws {
        var index = 0
        self = try Self.read(text, &index)
        guard index == text.count else { throw Failure(description: "trailing bytes at \(index)") }
    }

    private static func read(_ text: [UInt8], _ index: inout Int) throws -> OrderedJSON {
        guard index < text.count else { throw Failure(description: "unexpected end") }
        switch text[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [(key: String, value: OrderedJSON)] = []
            while text[index] != UInt8(ascii: "}") {
                if !members.isEmpty { try expect(text, &index, ",") }
                guard case .scalar(let key) = try read(text, &index),
                    let name = try JSONValue(parsing: key).stringValue
                else { throw Failure(description: "a key must be a string") }
                try expect(text, &index, ":")
                members.append((name, try read(text, &index)))
            }
            index += 1
            return .object(members)
        case UInt8(ascii: "["):
            index += 1
            var elements: [OrderedJSON] = []
            while text[index] != UInt8(ascii: "]") {
                if !elements.isEmpty { try expect(text, &index, ",") }
                elements.append(try read(text, &index))
            }
            index += 1
            return .array(elements)
        case UInt8(ascii: "\""):
            let start = index
            index += 1
            while text[index] != UInt8(ascii: "\"") { index += text[index] == UInt8(ascii: "\\") ? 2 : 1 }
            index += 1
            return .scalar(Array(text[start..<index]))
        default:
            let start = index
            while index < text.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(text[index]) {
                index += 1
            }
            return .scalar(Array(text[start..<index]))
        }
    }

    private static func expect(_ text: [UInt8], _ index: inout Int, _ byte: Unicode.Scalar) throws {
        guard text[index] == UInt8(ascii: byte) else { throw Failure(description: "expected \(byte) at \(index)") }
        index += 1
    }

    /// The compact text of the value.
    var text: [UInt8] {
        var bytes: [UInt8] = []
        write(into: &bytes)
        return bytes
    }

    private func write(into bytes: inout [UInt8]) {
        switch self {
        case .scalar(let scalar):
            bytes += scalar
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.write(into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes += JSONValue.string(member.key).serialized()
                bytes.append(UInt8(ascii: ":"))
                member.value.write(into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Applies a JSON Patch (`test`, `add`, `remove`, `replace`).
    mutating func apply(patch: [UInt8]) throws {
        guard case .array(let operations) = try OrderedJSON(text: patch) else {
            throw Failure(description: "not a list")
        }
        for case .object(let members) in operations {
            let field = { (name: String) in members.first { $0.key == name }?.value }
            guard case .scalar(let opText) = field("op"), case .scalar(let pathText) = field("path"),
                let op = try JSONValue(parsing: opText).stringValue,
                let path = try JSONValue(parsing: pathText).stringValue
            else { throw Failure(description: "an operation needs op and path") }
            let tokens = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
                $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            }
            let value = field("value")
            try change(at: tokens[...]) { target, last throws in
                try Self.apply(op, last, value, to: &target)
            }
        }
    }

    private mutating func change(
        at tokens: ArraySlice<String>, _ body: (inout OrderedJSON, String?) throws -> Void
    ) throws {
        guard let first = tokens.first else { return try body(&self, nil) }
        if tokens.count == 1 { return try body(&self, first) }
        switch self {
        case .object(var members):
            guard let index = members.firstIndex(where: { $0.key == first }) else {
                throw Failure(description: "no member \(first)")
            }
            try members[index].value.change(at: tokens.dropFirst(), body)
            self = .object(members)
        case .array(var elements):
            guard let index = Int(first), elements.indices.contains(index) else {
                throw Failure(description: "no element \(first)")
            }
            try elements[index].change(at: tokens.dropFirst(), body)
            self = .array(elements)
        case .scalar:
            throw Failure(description: "\(first) is inside a scalar")
        }
    }

    private static func apply(
        _ op: String, _ token: String?, _ value: OrderedJSON?, to target: inout OrderedJSON
    )
        throws
    {
        guard let token else {
            if op == "test" {
                guard target == value else { throw Failure(description: "test of the whole value failed") }
            } else {
                target = try value.orThrow("no value")
            }
            return
        }
        switch (target, op) {
        case (.object(var members), _):
            let index = members.firstIndex { $0.key == token }
            switch (op, index) {
            case ("test", let index?): guard members[index].value == value else { throw Failure(description: "test") }
            case ("add", let index?), ("replace", let index?): members[index].value = try value.orThrow("no value")
            case ("add", nil): members.append((token, try value.orThrow("no value")))
            case ("remove", let index?): members.remove(at: index)
            default: throw Failure(description: "\(op) of missing member \(token)")
            }
            target = .object(members)
        case (.array(var elements), _):
            guard let index = Int(token) else { throw Failure(description: "index \(token)") }
            switch op {
            case "test": guard elements[index] == value else { throw Failure(description: "test") }
            case "add": elements.insert(try value.orThrow("no value"), at: index)
            case "replace": elements[index] = try value.orThrow("no value")
            case "remove": elements.remove(at: index)
            default: throw Failure(description: "unsupported \(op)")
            }
            target = .array(elements)
        default:
            throw Failure(description: "\(op) inside a scalar")
        }
    }
}

extension Optional where Wrapped == OrderedJSON {
    fileprivate func orThrow(_ message: String) throws -> OrderedJSON {
        guard let self else { throw OrderedJSON.Failure(description: message) }
        return self
    }
}
