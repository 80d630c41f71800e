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
    /// Whether the next element of the open container needs a comma before it: it has one already. A value
    /// (a closed container too) sets it; opening a container and writing a key clear it. No stack is needed: once
    /// a container closes, its parent has an element.
    private var needsComma = false

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
    @inline(__always)
    public mutating func beginObject() {
        open(UInt8(ascii: "{"))
    }

    /// Closes the innermost object.
    @inline(__always)
    public mutating func endObject() {
        close(UInt8(ascii: "}"))
    }

    /// Opens an array (`[`).
    @inline(__always)
    public mutating func beginArray() {
        open(UInt8(ascii: "["))
    }

    /// Closes the innermost array.
    @inline(__always)
    public mutating func endArray() {
        close(UInt8(ascii: "]"))
    }

    /// Writes a constant object key (a literal that needs no escaping); the next value written belongs to it.
    ///
    /// The fast path for the document's fixed member names: comma, quotes, name and colon in one reservation.
    @inline(__always)
    public mutating func key(_ key: StaticString) {
        let length = key.utf8CodeUnitCount
        reserve(length + 4)
        if needsComma {
            base[count] = UInt8(ascii: ",")
            count += 1
        }
        base[count] = UInt8(ascii: "\"")
        count += 1
        copy(key.utf8Start, length)
        base[count] = UInt8(ascii: "\"")
        base[count + 1] = UInt8(ascii: ":")
        count += 2
        needsComma = false
    }

    /// Writes an object key computed at run time (escaped as needed); the next value written belongs to it.
    public mutating func key(escaping key: String) {
        separate()
        quoted(key)
        append(UInt8(ascii: ":"))
        needsComma = false
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
        json.withUnsafeBufferPointer { raw($0) }
    }

    /// Appends already-encoded JSON text (a part of another text) as one value.
    public mutating func raw(_ json: ArraySlice<UInt8>) {
        json.withUnsafeBufferPointer { raw($0) }
    }

    /// Appends already-encoded JSON text (a part of a larger text, say) as one value.
    public mutating func raw(_ json: UnsafeBufferPointer<UInt8>) {
        separate()
        append(json)
    }

    /// A position in the text, with the writer's state there (``rewind(to:)``).
    struct Mark {
        let byteCount: Int
        fileprivate let needsComma: Bool
    }

    /// Bytes written so far: where the next value ends up in ``bytes`` (after a comma, if it needs one).
    public var byteCount: Int { count }

    /// The current position, to come back to with ``rewind(to:)``.
    func mark() -> Mark {
        Mark(byteCount: count, needsComma: needsComma)
    }

    /// Forgets what was written since `mark`.
    mutating func rewind(to mark: Mark) {
        count = mark.byteCount
        needsComma = mark.needsComma
    }

    // MARK: - Separators

    /// Before a value: the comma its container needs, if any; after it, the container needs one.
    @inline(__always)
    private mutating func separate() {
        if needsComma { append(UInt8(ascii: ",")) }
        needsComma = true
    }

    @inline(__always)
    private mutating func open(_ bracket: UInt8) {
        reserve(2)
        if needsComma {
            base[count] = UInt8(ascii: ",")
            count += 1
        }
        base[count] = bracket
        count += 1
        needsComma = false
    }

    @inline(__always)
    private mutating func close(_ bracket: UInt8) {
        append(bracket)
        needsComma = true
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
        // Native strings are contiguous UTF-8: no copy of the string to make it so (a retain and a release each).
        if text.utf8.withContiguousStorageIfAvailable({ appendQuoted($0) }) == nil {
            var text = text
            text.withUTF8 { appendQuoted($0) }
        }
    }

    /// Appends `utf8` in quotes, checking and copying eight bytes at a time while no byte needs an escape (most
    /// strings of a document need none), then byte by byte; the first byte that needs one hands the rest to
    /// ``appendEscaped(_:)``.
    @inline(__always)
    private mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        let length = utf8.count
        reserve(length + 2)
        base[count] = UInt8(ascii: "\"")
        count += 1
        var offset = 0
        if let start = utf8.baseAddress {
            let source = UnsafeRawPointer(start)
            let target = UnsafeMutableRawPointer(base)
            while offset + 8 <= length {
                let word = source.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                if Self.needsEscape(word) { break }
                target.storeBytes(of: word, toByteOffset: count, as: UInt64.self)
                count += 8
                offset += 8
            }
            while offset < length {
                let byte = start[offset]
                if Self.needsEscape(byte) { break }
                base[count] = byte
                count += 1
                offset += 1
            }
            if offset < length { appendEscaped(UnsafeBufferPointer(rebasing: utf8[offset...])) }
        }
        append(UInt8(ascii: "\""))
    }

    /// Whether `byte` needs an escape: a control character (under 0x20), `"`, `\\` or `<`.
    @inline(__always)
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "<")
    }

    /// Whether one of the eight bytes of `word` needs an escape: a control character (under 0x20), `"`, `\\` or `<`.
    @inline(__always)
    static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        /// High bit set in each byte of `word` that is zero (exact when the result is zero).
        func zeros(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }
        let below = (word &- ones &* 0x20) & ~word & highs  // a byte under 0x20 (bytes ≥ 0x80 never match)
        let special = zeros(word ^ (ones &* 0x22)) | zeros(word ^ (ones &* 0x5C)) | zeros(word ^ (ones &* 0x3C))
        return below | special != 0
    }

    /// Appends UTF-8 text with JSON escapes, copying the runs between escapes in one go.
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard Self.needsEscape(byte) else { continue }
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
