/// Splits and percent-decodes request targets (no Foundation, no allocation beyond the results).
enum URLComponentsParser {
    /// Splits `"/p?q"` into the raw path and the raw query (nil when there is no `?`).
    static func split(target: String) -> (rawPath: String, rawQuery: String?) {
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else {
            return (target, nil)
        }
        let path = String(target[..<mark])
        let query = String(target[target.index(after: mark)...])
        return (path, query)
    }

    /// Percent-decodes a path; `+` stays `+`. Invalid UTF-8 becomes U+FFFD.
    static func decodePath(_ raw: String) -> String {
        percentDecode(raw, plusIsSpace: false)
    }

    /// Parses `a=1&b=x%20y` into a dictionary; `+` means space; for a repeated name the last wins.
    static func decodeQuery(_ raw: String?) -> [String: String] {
        guard let raw, !raw.isEmpty else { return [:] }
        var result: [String: String] = [:]
        for pair in raw.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let name: Substring.UTF8View.SubSequence
            let value: Substring.UTF8View.SubSequence
            if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
                name = pair[..<equals]
                value = pair[pair.index(after: equals)...]
            } else {
                name = pair
                value = pair[pair.endIndex...]
            }
            result[percentDecode(bytes: name, plusIsSpace: true)] = percentDecode(bytes: value, plusIsSpace: true)
        }
        return result
    }

    /// Percent-decodes `raw`; malformed escapes are kept literally.
    static func percentDecode(_ raw: String, plusIsSpace: Bool) -> String {
        let utf8 = raw.utf8
        if !utf8.contains(UInt8(ascii: "%")) && !(plusIsSpace && utf8.contains(UInt8(ascii: "+"))) {
            return raw
        }
        return percentDecode(bytes: utf8, plusIsSpace: plusIsSpace)
    }

    static func percentDecode<Bytes: Collection<UInt8>>(bytes: Bytes, plusIsSpace: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                let first = bytes.index(after: index)
                if first != bytes.endIndex {
                    let second = bytes.index(after: first)
                    if second != bytes.endIndex, let high = hexValue(bytes[first]), let low = hexValue(bytes[second]) {
                        out.append(high << 4 | low)
                        index = bytes.index(after: second)
                        continue
                    }
                }
                out.append(byte)
            } else if plusIsSpace && byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else {
                out.append(byte)
            }
            index = bytes.index(after: index)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
