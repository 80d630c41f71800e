/// A member of a JSON document's top-level object, found without parsing the document: the bytes of its value.
/// Analytics reads a restore document's `app` (`{"name":"todo","version":1}`, which its cache of app versions is
/// keyed by) and a flow event's `name` this way, for every stored session and change. Nil when the document is not
/// an object, has no such member at its top level, or its value is not of the kind asked for: the caller then
/// parses the document whole.
enum TopLevelMember {
    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    /// The value of the top-level member `key` when it is an object, as bytes (with its braces).
    static func object(_ key: StaticString, in document: [UInt8]) -> ArraySlice<UInt8>? {
        guard let open = valueStart(key, in: document), document[open] == UInt8(ascii: "{") else { return nil }
        guard let close = endOfObject(document, from: open) else { return nil }
        return document[open...close]
    }

    /// The value of the top-level member `key` when it is a string without escapes; nil otherwise (an escaped
    /// string is left to a parser).
    static func string(_ key: StaticString, in document: [UInt8]) -> String? {
        guard let open = valueStart(key, in: document), document[open] == quote else { return nil }
        let close = endOfString(document, from: open)
        guard close < document.count else { return nil }
        let content = document[(open + 1)..<close]
        guard !content.contains(backslash) else { return nil }
        return String(decoding: content, as: UTF8.self)
    }

    /// The `app` member's object (a restore document names the app version it is of there).
    static func app(in document: [UInt8]) -> ArraySlice<UInt8>? {
        object("app", in: document)
    }

    /// The index of the first byte of the top-level member `key`'s value.
    private static func valueStart(_ key: StaticString, in document: [UInt8]) -> Int? {
        let count = document.count
        var depth = 0
        var index = 0
        while index < count {
            let byte = document[index]
            if byte == quote {
                let start = index
                index = endOfString(document, from: index)
                guard index < count else { return nil }
                // A key of the top level: `"key"` followed by `:` (a string value equal to the key is skipped).
                if depth == 1, isKey(key, document[(start + 1)..<index]) {
                    var colon = index + 1
                    while colon < count, isSpace(document[colon]) { colon += 1 }
                    if colon < count, document[colon] == UInt8(ascii: ":") {
                        var value = colon + 1
                        while value < count, isSpace(document[value]) { value += 1 }
                        return value < count ? value : nil
                    }
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

    private static func isKey(_ key: StaticString, _ bytes: ArraySlice<UInt8>) -> Bool {
        key.withUTF8Buffer { $0.elementsEqual(bytes) }
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
