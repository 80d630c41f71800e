/// Where each value of a JSON text starts, by JSON Pointer: what lets a finding about `/screens/Home/title` say
/// the line and column of that value in its file.
///
/// The text must be JSON that ``JSONValue/init(parsing:)`` reads (it is not checked again). One pass with a stack of
/// open containers, no recursion; of duplicate keys the first is recorded, as the first is the one read.
public enum JSONValueOffsets {
    /// The byte offset where the value at each pointer starts (the root's pointer is "").
    public static func of(_ text: [UInt8]) -> [String: Int] {
        var scanner = Scanner(text: text)
        scanner.run()
        return scanner.offsets
    }

    private struct Scanner {
        /// An open object (with whether a key's token is on the path) or array (with its element count).
        enum Frame {
            case object(hasKey: Bool)
            case array(count: Int)
        }

        let text: [UInt8]
        var index = 0
        var frames: [Frame] = []
        var tokens: [String] = []
        var expectsKey = false
        var offsets: [String: Int] = [:]

        mutating func run() {
            if text.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
            while index < text.count {
                let byte = text[index]
                switch byte {
                case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"), UInt8(ascii: ":"):
                    index += 1
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    record()
                    frames.append(byte == UInt8(ascii: "{") ? .object(hasKey: false) : .array(count: 0))
                    if byte == UInt8(ascii: "[") { tokens.append("0") }
                    expectsKey = byte == UInt8(ascii: "{")
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    switch frames.popLast() {
                    case .object(hasKey: true)?, .array?: tokens.removeLast()
                    case .object(hasKey: false)?, nil: break
                    }
                    expectsKey = false
                    index += 1
                case UInt8(ascii: ","):
                    nextMember()
                    index += 1
                case UInt8(ascii: "\""):
                    let start = index
                    index = endOfString(from: index)
                    if expectsKey {
                        tokens.append(JSONPointer.escaped(key(text[start..<index])))
                        frames[frames.count - 1] = .object(hasKey: true)
                        expectsKey = false
                    } else {
                        record(at: start)
                    }
                default:
                    record()
                    while index < text.count, !Self.delimiters.contains(text[index]) { index += 1 }
                }
            }
        }

        static let delimiters: Set<UInt8> = Set(" \n\r\t,]}".utf8)

        /// A comma: the next element's index, or the next member's key.
        mutating func nextMember() {
            switch frames.last {
            case .array(let count)?:
                frames[frames.count - 1] = .array(count: count + 1)
                tokens[tokens.count - 1] = String(count + 1)
            case .object(let hasKey)?:
                if hasKey { tokens.removeLast() }
                frames[frames.count - 1] = .object(hasKey: false)
                expectsKey = true
            case nil:
                break
            }
        }

        mutating func record(at offset: Int? = nil) {
            let pointer = tokens.map { "/" + $0 }.joined()
            if offsets[pointer] == nil { offsets[pointer] = offset ?? index }
        }

        /// The index just after the string starting at `start` (its closing quote).
        func endOfString(from start: Int) -> Int {
            var index = start + 1
            while index < text.count {
                switch text[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""): return index + 1
                default: index += 1
                }
            }
            return index
        }

        /// A key's text, its escapes decoded.
        func key(_ quoted: ArraySlice<UInt8>) -> String {
            guard quoted.contains(UInt8(ascii: "\\")), case .string(let text)? = try? JSONValue(parsing: Array(quoted))
            else { return String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self) }
            return text
        }
    }
}
