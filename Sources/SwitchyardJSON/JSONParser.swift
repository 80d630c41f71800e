import Foundation

/// A strict RFC 8259 parser straight into ``JSONValue``, for ``JSONValue/init(parsing:)``.
///
/// `JSONDecoder` decoding a `JSONValue` tries each type in turn and throws (and builds) an error for every miss, which
/// made parsing a state document cost milliseconds. This parser reads the bytes once. It accepts what `JSONDecoder`
/// accepts (any top-level value, surrounding whitespace, a leading byte-order mark, a trailing comma in arrays and
/// objects; the first of duplicate keys wins) and rejects the rest with a `DecodingError.dataCorrupted` at the top
/// level, as `JSONDecoder` does.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// Inside the value of a duplicate key, which `JSONDecoder` never converts: only its syntax is checked.
    private var ignoring = 0
    /// Bounds that throw ``JSONLimitExceeded`` (with where), or nil for the defaults of ``JSONValue/init(parsing:)``.
    private let limits: JSONLimits?
    private var nodes = 0

    /// The nesting limit `JSONDecoder` also enforces.
    static let maxDepth = 512

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits? = nil) throws -> JSONValue {
        var parser = JSONParser(bytes: bytes, limits: limits)
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { parser.index = 3 }
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("unexpected text after the value") }
        return value
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits?) {
        self.bytes = bytes
        self.limits = limits
    }

    private func failure(_ reason: String) -> DecodingError {
        let error = JSONSyntaxError(byteOffset: index, reason: reason)
        return DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: [], debugDescription: error.description, underlyingError: error))
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func value() throws -> JSONValue {
        if let limits {
            nodes += 1
            guard nodes <= limits.maxNodes else { throw JSONLimitExceeded(.nodes(limits.maxNodes), at: "") }
        }
        switch current {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case .some(let byte) where byte == UInt8(ascii: "-") || (byte >= 0x30 && byte <= 0x39): return try number()
        case .some: throw failure("unexpected character")
        case .none: throw failure("unexpected end of text")
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw failure("unexpected end of text") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw failure("unexpected character")
        }
        index += count
        return value
    }

    private mutating func nest() throws {
        depth += 1
        if let limits, depth > limits.maxDepth { throw JSONLimitExceeded(.depth(limits.maxDepth), at: "") }
        guard depth <= Self.maxDepth else { throw failure("too many nested arrays or objects") }
        index += 1
        skipWhitespace()
    }

    private mutating func object() throws -> JSONValue {
        try nest()
        var members: [String: JSONValue] = [:]
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            if current == UInt8(ascii: "}"), !members.isEmpty {  // a trailing comma
                index += 1
                depth -= 1
                return .object(members)
            }
            guard current == UInt8(ascii: "\"") else { throw failure("expected a member name") }
            let name = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':'") }
            index += 1
            skipWhitespace()
            if members[name] == nil {
                do {
                    members[name] = try value()
                } catch let exceeded as JSONLimitExceeded {
                    throw exceeded.within(name)
                }
            } else {
                ignoring += 1
                _ = try value()
                ignoring -= 1
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(members)
            default: throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func array() throws -> JSONValue {
        try nest()
        var elements: [JSONValue] = []
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            if current == UInt8(ascii: "]"), !elements.isEmpty {  // a trailing comma
                index += 1
                depth -= 1
                return .array(elements)
            }
            do {
                elements.append(try value())
            } catch let exceeded as JSONLimitExceeded {
                throw exceeded.within(String(elements.count))
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default: throw failure("expected ',' or ']'")
            }
        }
    }

    private mutating func number() throws -> JSONValue {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            guard skipDigits() > 0 else { throw failure("expected a digit") }
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() > 0 else { throw failure("expected a digit after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw failure("expected a digit in the exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let number = Double(text), number.isFinite || ignoring > 0 else {
            throw failure("the number \(text) is not representable")
        }
        return .number(number)
    }

    private mutating func skipDigits() -> Int {
        let start = index
        while let byte = current, byte >= 0x30, byte <= 0x39 { index += 1 }
        return index - start
    }

    /// A string; `index` is at the opening quote.
    private mutating func string() throws -> String {
        index += 1
        let start = index
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 { index += 1 }
        if current == UInt8(ascii: "\"") {
            let text = try validated(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            index += 1
            return text
        }
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while true {
            guard let byte = current else { throw failure("unterminated string") }
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return try utf8.withUnsafeBufferPointer { try validated($0) }
            case UInt8(ascii: "\\"): try escape(into: &utf8)
            case 0..<0x20: throw failure("unescaped control character in a string")
            default: utf8.append(byte)
            }
        }
    }

    /// The string of UTF-8 bytes; throws if they are not valid UTF-8.
    private func validated(_ utf8: UnsafeBufferPointer<UInt8>) throws -> String {
        if let limits, utf8.count > limits.maxStringBytes {
            throw JSONLimitExceeded(.stringBytes(limits.maxStringBytes), at: "")
        }
        let text = String(decoding: utf8, as: UTF8.self)
        // Decoding repairs invalid sequences (U+FFFD), so valid input is exactly what comes back.
        if utf8.contains(where: { $0 >= 0x80 }), !text.utf8.elementsEqual(utf8) {
            throw failure("invalid UTF-8 in a string")
        }
        return text
    }

    /// One escape sequence after the backslash, appended as UTF-8.
    private mutating func escape(into utf8: inout [UInt8]) throws {
        guard let byte = current else { throw failure("unterminated string") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                else {
                    if ignoring > 0 { return }
                    throw failure("a high surrogate without its low surrogate")
                }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else {
                    if ignoring > 0 { return }
                    throw failure("an invalid low surrogate")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar), ignoring == 0 {
                throw failure("a low surrogate without its high surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else {
                if ignoring > 0 { return }
                throw failure("an invalid unicode escape")
            }
            utf8.append(contentsOf: String(Character(unicode)).utf8)
        default: throw failure("an invalid escape sequence")
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("unterminated unicode escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw failure("an invalid hex digit in a unicode escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
