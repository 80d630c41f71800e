import Switchyard

/// The comparison for `JSONWriter`: the same output written into a plain `[UInt8]` with `append(contentsOf:)`, no
/// unsafe pointers. `make bench` measures both on the deep demo document, so the unsafe buffer has to earn its keep.
struct SafeJSONWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = [false]
    private var pendingKey = false

    init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: scalar("null")
        case .bool(let flag): scalar(flag ? "true" : "false")
        case .number(let number):
            if number.isFinite, number.rounded() == number, abs(number) < 1e15 {
                scalar(String(Int(number)))
            } else {
                scalar(number.isFinite ? String(number) : "null")
            }
        case .string(let text):
            separate()
            quoted(text)
        case .array(let elements):
            open(UInt8(ascii: "["))
            for element in elements { self.value(element) }
            close(UInt8(ascii: "]"))
        case .object(let members):
            open(UInt8(ascii: "{"))
            for name in members.keys.sorted() {
                separate()
                quoted(name)
                bytes.append(UInt8(ascii: ":"))
                pendingKey = true
                if let member = members[name] { self.value(member) }
            }
            close(UInt8(ascii: "}"))
        }
    }

    private mutating func scalar(_ text: String) {
        separate()
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        needsComma.append(false)
    }

    private mutating func close(_ bracket: UInt8) {
        needsComma.removeLast()
        bytes.append(bracket)
    }

    private mutating func separate() {
        if pendingKey {
            pendingKey = false
            return
        }
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    private mutating func quoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = text.utf8.startIndex
        for index in text.utf8.indices {
            let byte = text.utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "<")
            else { continue }
            bytes.append(contentsOf: text.utf8[runStart..<index])
            escape(byte)
            runStart = text.utf8.index(after: index)
        }
        bytes.append(contentsOf: text.utf8[runStart...])
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
        case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
        case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
        case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
        case UInt8(ascii: "<"): bytes.append(contentsOf: #"\u003c"#.utf8)
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: #"\u00"#.utf8)
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 15)])
        }
    }
}
