/// The `app` member of a restore document's top level, found without parsing the document: the bytes of its value
/// (`{"name":"todo","version":1}`), which analytics keys its cache of app versions by (documents differ, their
/// `app` members rarely do). Nil when the document has none at its top level or is not an object: the caller then
/// parses it whole.
enum AppMember {
    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
    private static let key = Array(#""app""#.utf8)

    /// The value of the top-level `app` member when it is an object, as bytes.
    static func value(in document: [UInt8]) -> ArraySlice<UInt8>? {
        var depth = 0
        var index = 0
        let count = document.count
        while index < count {
            let byte = document[index]
            if byte == quote {
                let start = index
                index = endOfString(document, from: index)
                guard index < count else { return nil }
                // A key of the top level: `"app"` followed by `:` and an object.
                if depth == 1, index - start + 1 == key.count, document[start...index].elementsEqual(key) {
                    var colon = index + 1
                    while colon < count, isSpace(document[colon]) { colon += 1 }
                    guard colon < count, document[colon] == UInt8(ascii: ":") else { return nil }
                    var open = colon + 1
                    while open < count, isSpace(document[open]) { open += 1 }
                    guard open < count, document[open] == UInt8(ascii: "{") else { return nil }
                    guard let close = endOfObject(document, from: open) else { return nil }
                    return document[open...close]
                }
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { return nil }
            }
            index += 1
        }
        return nil
    }

    /// The index of the quote that ends the string starting at `start` (its opening quote); `count` if none.
    private static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == backslash {
                index += 2
                continue
            }
            if bytes[index] == quote { return index }
            index += 1
        }
        return bytes.count
    }

    /// The index of the `}` that closes the object opening at `open`.
    private static func endOfObject(_ bytes: [UInt8], from open: Int) -> Int? {
        var depth = 0
        var index = open
        while index < bytes.count {
            switch bytes[index] {
            case quote: index = endOfString(bytes, from: index)
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
            index += 1
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
