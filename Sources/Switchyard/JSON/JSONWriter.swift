/// Appends compact JSON text to a byte buffer.
///
/// Used for the state document, which is written on every read and every SSE event: writing bytes directly is several
/// times faster than building dictionaries for `JSONEncoder`, and the member order is fixed, so output is stable.
public struct JSONWriter: Sendable {
    /// The text written so far (UTF-8).
    public private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = [false]
    private var pendingKey = false

    /// Creates an empty writer.
    public init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    /// Opens an object (`{`), as a value or as the value of a pending key.
    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }

    /// Closes the innermost object.
    public mutating func endObject() {
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    /// Opens an array (`[`).
    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
    }

    /// Closes the innermost array.
    public mutating func endArray() {
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes a constant object key (a literal that needs no escaping); the next value written belongs to it.
    ///
    /// The fast path for the document's fixed member names: the bytes are copied as they are.
    public mutating func key(_ key: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        pendingKey = true
    }

    /// Writes an object key computed at run time (escaped as needed); the next value written belongs to it.
    public mutating func key(escaping key: String) {
        separate()
        quoted(key)
        bytes.append(UInt8(ascii: ":"))
        pendingKey = true
    }

    /// Writes a string value.
    public mutating func string(_ value: String) {
        separate()
        quoted(value)
    }

    /// Writes an integer value.
    public mutating func int(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Writes a boolean value.
    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    /// Writes `null`.
    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Writes a number value (integers without a fraction).
    public mutating func number(_ value: Double) {
        separate()
        if value.isFinite, value.rounded() == value, abs(value) < 1e15 {
            bytes.append(contentsOf: String(Int(value)).utf8)
        } else if value.isFinite {
            bytes.append(contentsOf: String(value).utf8)
        } else {
            bytes.append(contentsOf: "null".utf8)
        }
    }

    /// Writes a key and a string value.
    public mutating func member(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    /// Writes a key and a string value, or nothing when `value` is nil.
    public mutating func member(_ name: StaticString, ifPresent value: String?) {
        if let value { member(name, value) }
    }

    /// Writes a key and an integer value.
    public mutating func member(_ name: StaticString, _ value: Int) {
        key(name)
        int(value)
    }

    /// Writes a key and a boolean value.
    public mutating func member(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// Writes a key and a JSON value.
    public mutating func member(_ name: StaticString, _ value: JSONValue) {
        key(name)
        self.value(value)
    }

    /// Writes any JSON value (object keys sorted).
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let value): self.number(value)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let members):
            beginObject()
            for name in members.keys.sorted() {
                key(escaping: name)
                self.value(members[name]!)
            }
            endObject()
        }
    }

    /// Appends already-encoded JSON text as one value.
    public mutating func raw(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
    }

    private mutating func separate() {
        if pendingKey {
            pendingKey = false
            return
        }
        if needsComma[needsComma.count - 1] {
            bytes.append(UInt8(ascii: ","))
        }
        needsComma[needsComma.count - 1] = true
    }

    private mutating func quoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { appendEscaped($0) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends UTF-8 text with JSON escapes, copying the runs between escapes in one go.
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "<")
            else { continue }
            if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            appendEscape(byte)
            runStart = index + 1
        }
        if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
    }

    private mutating func appendEscape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [92, 34])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [92, 92])
        case 0x0A: bytes.append(contentsOf: [92, UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [92, UInt8(ascii: "r")])
        case 0x09: bytes.append(contentsOf: [92, UInt8(ascii: "t")])
        case UInt8(ascii: "<"):
            // Escaped so a document can be embedded in HTML safely.
            bytes.append(contentsOf: Array("\\u003c".utf8))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
        }
    }
}
