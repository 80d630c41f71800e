/// Entity tags (RFC 9110 §8.8.3) as conditional requests compare them.
public enum EntityTag {
    /// Whether an `If-None-Match` value names `tag` (with its quotes): `*`, or a comma-separated list of entity tags
    /// compared weakly (`W/"7"` matches `"7"`; RFC 9110 §13.1.2).
    public static func noneMatch(_ header: String, _ tag: String) -> Bool {
        header.split(separator: ",").contains { part in
            var candidate = part.drop { $0 == " " || $0 == "\t" }
            while let last = candidate.last, last == " " || last == "\t" { candidate = candidate.dropLast() }
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate = candidate.dropFirst(2) }
            return candidate == tag[...]
        }
    }
}
