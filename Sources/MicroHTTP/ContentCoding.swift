import Gzip

/// gzip content coding of responses (RFC 9110 §8.4.1), for clients that say they accept it.
///
/// A compressed representation is another representation: it has its own entity tag (the identity one with `-gz`
/// inside the quotes), and every response that could be compressed says `Vary: Accept-Encoding`.
public enum ContentCoding {
    /// Whether `Accept-Encoding` accepts gzip: `gzip` (or `x-gzip`, or `*`) without `q=0`.
    public static func acceptsGzip(_ request: HTTPRequest) -> Bool {
        guard let header = request.headers["accept-encoding"] else { return false }
        var wildcard = false
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";")
            let coding = parts.first.map { $0.trimmingBlanks.lowercased() } ?? ""
            let refused = parts.dropFirst().contains { parameter in
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingBlanks.lowercased() }
                return pair.count == 2 && pair[0] == "q" && (Double(pair[1]) ?? 1) == 0
            }
            if coding == "gzip" || coding == "x-gzip" { return !refused }
            if coding == "*" { wildcard = !refused }
        }
        return wildcard
    }

    /// Whether a body of this type gains from compression (text, JSON, JavaScript, SVG), at this size.
    public static func isWorthCompressing(type: String, bytes: Int) -> Bool {
        guard bytes >= 256 else { return false }
        let type = type.lowercased()
        return type.hasPrefix("text/") || type.hasPrefix("application/json") || type.contains("+json")
            || type.hasPrefix("application/javascript") || type.hasPrefix("image/svg+xml")
    }

    /// `bytes` as gzip; nil if compression failed.
    public static func gzip(_ bytes: [UInt8]) -> [UInt8]? {
        Gzip.compress(bytes)
    }

    /// The entity tag of the gzip representation of the one tagged `tag` (`"abc"` → `"abc-gz"`).
    public static func gzipTag(_ tag: String) -> String {
        tag.hasSuffix("\"") ? String(tag.dropLast()) + "-gz\"" : tag + "-gz"
    }
}

extension Substring {
    fileprivate var trimmingBlanks: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
