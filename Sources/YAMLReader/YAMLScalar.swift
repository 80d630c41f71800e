import SwitchyardJSON

/// A scalar's JSON value by YAML 1.2's core schema, as JSON reads it: `true`/`false` (not `yes`, `no`, `on`,
/// `off`), `null`, `~` and nothing for null, decimal and `0x`/`0o` integers, decimal floats. Everything else is text:
/// a date, `.inf`, `.nan` (which JSON cannot hold), `0755` (no octal by a leading zero), `<<` (no merge keys).
/// Quoted scalars are always text.
enum YAMLScalar {
    static let stringTag = "tag:yaml.org,2002:str"

    /// The value of a plain (unquoted, untagged) scalar.
    static func plain(_ text: String) -> JSONValue {
        if let value = null(text) ?? bool(text) ?? integer(text) ?? float(text) { return value }
        return .string(text)
    }

    /// The value of a scalar with an explicit tag; why not when the tag cannot hold the text or JSON has no value
    /// for the tag.
    static func tagged(_ text: String, tag: String) -> Result<JSONValue, YAMLFailure.Reason> {
        let value: JSONValue? =
            switch tag {
            case "!", stringTag: .string(text)
            case "tag:yaml.org,2002:null": null(text)
            case "tag:yaml.org,2002:bool": bool(text)
            case "tag:yaml.org,2002:int": integer(text)
            case "tag:yaml.org,2002:float": float(text) ?? integer(text)
            default: nil
            }
        if let value { return .success(value) }
        let known = [
            "tag:yaml.org,2002:null", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
        ]
        return .failure(known.contains(tag) ? .notRepresentable(text) : .unsupportedTag(tag))
    }

    private static func null(_ text: String) -> JSONValue? {
        ["", "~", "null", "Null", "NULL"].contains(text) ? .null : nil
    }

    private static func bool(_ text: String) -> JSONValue? {
        switch text {
        case "true", "True", "TRUE": .bool(true)
        case "false", "False", "FALSE": .bool(false)
        default: nil
        }
    }

    /// `[-+]?(0|[1-9][0-9]*)`, `0o[0-7]+`, `0x[0-9a-fA-F]+`.
    private static func integer(_ text: String) -> JSONValue? {
        let utf8 = Array(text.utf8)
        if utf8.count > 2, utf8[0] == UInt8(ascii: "0"), utf8[1] == UInt8(ascii: "x") || utf8[1] == UInt8(ascii: "o") {
            let radix = utf8[1] == UInt8(ascii: "x") ? 16 : 8
            return UInt64(text.dropFirst(2), radix: radix).map { .number(Double($0)) }
        }
        var digits = utf8[...]
        if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            digits = digits.dropFirst()
        }
        guard let first = digits.first, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            first != UInt8(ascii: "0") || digits.count == 1
        else { return nil }
        return Double(text).map { .number($0) }
    }

    /// `[-+]?(\.[0-9]+|(0|[1-9][0-9]*)(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, finite.
    private static func float(_ text: String) -> JSONValue? {
        var rest = Array(text.utf8)[...]
        func digits() -> Int {
            let count = rest.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
            rest = rest.dropFirst(count)
            return count
        }
        if let sign = rest.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { rest = rest.dropFirst() }
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            guard digits() > 0 else { return nil }
        } else {
            let leadingZero = rest.first == UInt8(ascii: "0")
            let count = digits()
            guard count > 0, !leadingZero || count == 1 else { return nil }
            if rest.first == UInt8(ascii: ".") {
                rest = rest.dropFirst()
                _ = digits()
            }
        }
        if let e = rest.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            if let sign = rest.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { rest = rest.dropFirst() }
            guard digits() > 0 else { return nil }
        }
        guard rest.isEmpty else { return nil }
        let number = Double(text.hasSuffix(".") ? text + "0" : text)
        guard let number, number.isFinite else { return nil }
        return .number(number)
    }
}
