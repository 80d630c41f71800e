#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Appends compact JSON text to a growable byte buffer.
///
/// Used for the state document, which is written for every read, response and SSE event: writing bytes directly is
/// several times faster than building dictionaries for `JSONEncoder`, and the member order is fixed, so output is
/// stable. The writer owns its buffer (it is not copyable) and appends with plain `memcpy`s; ``bytes`` copies the
/// result out once at the end.
public struct JSONWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    /// Whether the open container at each depth needs a comma before its next element: one bit per depth below 64,
    /// deeper levels in `deepCommas`.
    private var commaBits: UInt64 = 0
    private var deepCommas: [Bool] = []
    private var depth = 0
    private var pendingKey = false

    /// Creates an empty writer with room for `capacity` bytes (it grows as needed).
    public init(capacity: Int = 1024) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The text written so far (UTF-8).
    public var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: count))
    }

    /// Opens an object (`{`), as a value or as the value of a pending key.
    public mutating func beginObject() {
        separate()
        append(UInt8(ascii: "{"))
        push()
    }

    /// Closes the innermost object.
    public mutating func endObject() {
        pop()
        append(UInt8(ascii: "}"))
    }

    /// Opens an array (`[`).
    public mutating func beginArray() {
        separate()
        append(UInt8(ascii: "["))
        push()
    }

    /// Closes the innermost array.
    public mutating func endArray() {
        pop()
        append(UInt8(ascii: "]"))
    }

    /// Writes a constant object key (a literal that needs no escaping); the next value written belongs to it.
    ///
    /// The fast path for the document's fixed member names: the bytes are copied as they are.
    public mutating func key(_ key: StaticString) {
        separate()
        reserve(key.utf8CodeUnitCount + 3)
        base[count] = UInt8(ascii: "\"")
        count += 1
        copy(key.utf8Start, key.utf8CodeUnitCount)
        base[count] = UInt8(ascii: "\"")
        base[count + 1] = UInt8(ascii: ":")
        count += 2
        pendingKey = true
    }

    /// Writes an object key computed at run time (escaped as needed); the next value written belongs to it.
    public mutating func key(escaping key: String) {
        separate()
        quoted(key)
        append(UInt8(ascii: ":"))
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
        appendDecimal(value)
    }

    /// Writes a boolean value.
    public mutating func bool(_ value: Bool) {
        separate()
        value ? append("true") : append("false")
    }

    /// Writes `null`.
    public mutating func null() {
        separate()
        append("null")
    }

    /// Writes a number value (integers without a fraction; non-finite numbers as `null`).
    public mutating func number(_ value: Double) {
        separate()
        if value.isFinite, value.rounded() == value, abs(value) < 1e15 {
            appendDecimal(Int(value))
        } else if value.isFinite {
            var text = String(value)
            text.withUTF8 { append($0) }
        } else {
            append("null")
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
        json.withUnsafeBufferPointer { append($0) }
    }

    /// Appends already-encoded JSON text (a part of a larger text, say) as one value.
    public mutating func raw(_ json: UnsafeBufferPointer<UInt8>) {
        separate()
        append(json)
    }

    /// A position in the text, with the writer's state there (``rewind(to:)``).
    struct Mark {
        let byteCount: Int
        fileprivate let commaBits: UInt64
        fileprivate let deepCommas: [Bool]
        fileprivate let depth: Int
        fileprivate let pendingKey: Bool
    }

    /// Bytes written so far.
    var byteCount: Int { count }

    /// The current position, to come back to with ``rewind(to:)``.
    func mark() -> Mark {
        Mark(byteCount: count, commaBits: commaBits, deepCommas: deepCommas, depth: depth, pendingKey: pendingKey)
    }

    /// Forgets what was written since `mark`.
    mutating func rewind(to mark: Mark) {
        count = mark.byteCount
        commaBits = mark.commaBits
        deepCommas = mark.deepCommas
        depth = mark.depth
        pendingKey = mark.pendingKey
    }

    // MARK: - Separators

    private mutating func push() {
        depth += 1
        if depth < 64 {
            commaBits &= ~(1 << UInt64(depth))
        } else {
            deepCommas.append(false)
        }
    }

    private mutating func pop() {
        if depth >= 64 { deepCommas.removeLast() }
        depth -= 1
    }

    private mutating func separate() {
        if pendingKey {
            pendingKey = false
            return
        }
        if depth < 64 {
            let bit: UInt64 = 1 << UInt64(depth)
            if commaBits & bit != 0 { append(UInt8(ascii: ",")) }
            commaBits |= bit
        } else {
            if deepCommas[deepCommas.count - 1] { append(UInt8(ascii: ",")) }
            deepCommas[deepCommas.count - 1] = true
        }
    }

    // MARK: - Bytes

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    private mutating func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let start = buffer.baseAddress, !buffer.isEmpty else { return }
        copy(start, buffer.count)
    }

    /// Copies bytes in; most runs in a document are short names and ids, which a plain loop copies faster than a
    /// call to `memcpy`.
    @inline(__always)
    private mutating func copy(_ start: UnsafePointer<UInt8>, _ length: Int) {
        reserve(length)
        if length <= 16 {
            for index in 0..<length { base[count + index] = start[index] }
        } else {
            (base + count).update(from: start, count: length)
        }
        count += length
    }

    private mutating func append(_ literal: StaticString) {
        copy(literal.utf8Start, literal.utf8CodeUnitCount)
    }

    private mutating func appendDecimal(_ value: Int) {
        reserve(20)
        if value == 0 {
            base[count] = UInt8(ascii: "0")
            count += 1
            return
        }
        var magnitude = value.magnitude
        if value < 0 {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        var digits = 0
        var probe = magnitude
        while probe > 0 {
            digits += 1
            probe /= 10
        }
        var position = count + digits - 1
        while magnitude > 0 {
            base[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            position -= 1
        }
        count += digits
    }

    private mutating func quoted(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            reserve(utf8.count + 2)
            base[count] = UInt8(ascii: "\"")
            count += 1
            if Self.needsEscaping(utf8) {
                appendEscaped(utf8)
            } else {
                append(utf8)
            }
            append(UInt8(ascii: "\""))
        }
    }

    /// Whether any byte of `utf8` needs an escape (a control character, `"`, `\\` or `<`), checked eight bytes at a
    /// time: most strings of a document need none and are copied whole.
    static func needsEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = utf8.baseAddress else { return false }
        let raw = UnsafeRawPointer(start)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        /// High bit set in each byte of `word` that is zero.
        func zeros(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }
        var offset = 0
        while offset + 8 <= utf8.count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let below = (word &- ones &* 0x20) & ~word & highs  // a byte under 0x20 (bytes ≥ 0x80 never match)
            let special = zeros(word ^ (ones &* 0x22)) | zeros(word ^ (ones &* 0x5C)) | zeros(word ^ (ones &* 0x3C))
            if below | special != 0 { return true }
            offset += 8
        }
        while offset < utf8.count {
            let byte = utf8[offset]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x3C { return true }
            offset += 1
        }
        return false
    }

    /// Appends UTF-8 text with JSON escapes, copying the runs between escapes in one go.
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "<")
            else { continue }
            if runStart < index { append(UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            appendEscape(byte)
            runStart = index + 1
        }
        if runStart < utf8.count { append(UnsafeBufferPointer(rebasing: utf8[runStart...])) }
    }

    private mutating func appendEscape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case 0x0A: append("\\n")
        case 0x0D: append("\\r")
        case 0x09: append("\\t")
        case UInt8(ascii: "<"):
            // Escaped so a document can be embedded in HTML safely.
            append("\\u003c")
        default:
            let hex: StaticString = "0123456789abcdef"
            append("\\u00")
            append(hex.utf8Start[Int(byte >> 4)])
            append(hex.utf8Start[Int(byte & 15)])
        }
    }
}
