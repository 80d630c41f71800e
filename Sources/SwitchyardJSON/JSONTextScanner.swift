#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds the byte ranges of values in a JSON text without decoding them: where a value ends, an object's members,
/// an array's elements. The text must be valid JSON (whitespace is allowed); it is not checked.
///
/// It is given where each object and array ends (``containerEnds(_:)``, one read of the text), so that finding a
/// container's end costs one look-up: a diff walks down the changed path without reading the text again at every
/// level.
struct JSONTextScanner {
    private let text: UnsafeBufferPointer<UInt8>
    /// For each byte that opens an object or an array, the index just after its closing bracket (0 elsewhere).
    private let containerEnds: [Int32]

    init(_ text: UnsafeBufferPointer<UInt8>, containerEnds: [Int32]) {
        self.text = text
        self.containerEnds = containerEnds
    }

    /// Where each object and array of `text` ends, in one read (strings are skipped with `memchr`).
    static func containerEnds(_ text: UnsafeBufferPointer<UInt8>) -> [Int32] {
        var ends = [Int32](repeating: 0, count: text.count)
        var open: [Int] = []
        var index = 0
        while index < text.count {
            switch text[index] {
            case UInt8(ascii: "\""):
                index = Self.endOfString(text, index)
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                open.append(index)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let start = open.popLast() { ends[start] = Int32(index + 1) }
            default:
                break
            }
            index += 1
        }
        return ends
    }

    /// The whole text's value: from its first byte that is not whitespace to its end (trailing whitespace aside).
    var wholeRange: Range<Int> {
        let start = skipWhitespace(0)
        var end = text.count
        while end > start, Self.isWhitespace(text[end - 1]) { end -= 1 }
        return start..<end
    }

    /// The range of the value that starts at `index` or after whitespace there.
    func valueRange(at index: Int) -> Range<Int> {
        let start = skipWhitespace(index)
        return start..<end(ofValueAt: start)
    }

    /// An object's members, in text order: the range of each key (with its quotes) and of its value.
    func members(of object: Range<Int>) -> [(key: Range<Int>, value: Range<Int>)] {
        var members: [(key: Range<Int>, value: Range<Int>)] = []
        var index = skipWhitespace(object.lowerBound + 1)
        while index < object.upperBound - 1, text[index] == UInt8(ascii: "\"") {
            let keyEnd = Self.endOfString(text, index)
            let value = valueRange(at: skipWhitespace(keyEnd) + 1)  // after the colon
            members.append((index..<keyEnd, value))
            index = skipWhitespace(value.upperBound)
            if index < object.upperBound, text[index] == UInt8(ascii: ",") { index = skipWhitespace(index + 1) }
        }
        return members
    }

    /// An array's elements, in order.
    func elements(of array: Range<Int>) -> [Range<Int>] {
        var elements: [Range<Int>] = []
        var index = skipWhitespace(array.lowerBound + 1)
        while index < array.upperBound - 1, text[index] != UInt8(ascii: "]") {
            let element = valueRange(at: index)
            elements.append(element)
            index = skipWhitespace(element.upperBound)
            if index < array.upperBound, text[index] == UInt8(ascii: ",") { index = skipWhitespace(index + 1) }
        }
        return elements
    }

    /// The index just after the value that starts at `start`.
    private func end(ofValueAt start: Int) -> Int {
        switch text[start] {
        case UInt8(ascii: "\""):
            return Self.endOfString(text, start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let end = Int(containerEnds[start])
            return end > start ? end : text.count
        default:  // a number, true, false or null
            var index = start
            while index < text.count, !Self.endsScalar(text[index]) { index += 1 }
            return index
        }
    }

    /// The index just after the string whose opening quote is at `start`: the next quote not escaped (found with
    /// `memchr`, as most of a document's bytes are in strings).
    private static func endOfString(_ text: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        guard let base = text.baseAddress else { return text.count }
        var index = start + 1
        while index < text.count {
            guard let found = memchr(base + index, Int32(UInt8(ascii: "\"")), text.count - index) else {
                return text.count
            }
            let quote = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
            var backslashes = 0
            while quote - backslashes - 1 > start, text[quote - backslashes - 1] == UInt8(ascii: "\\") {
                backslashes += 1
            }
            if backslashes % 2 == 0 { return quote + 1 }
            index = quote + 1
        }
        return text.count
    }

    private func skipWhitespace(_ start: Int) -> Int {
        var index = start
        while index < text.count, Self.isWhitespace(text[index]) { index += 1 }
        return index
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func endsScalar(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || isWhitespace(byte)
    }
}
