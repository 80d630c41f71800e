/// JSON Pointers (RFC 6901), as every finding, limit and patch here names a place in a document.
public enum JSONPointer {
    /// A member name or index as a reference token: `~` is `~0`, `/` is `~1`.
    public static func escaped(_ token: String) -> String {
        guard token.contains(where: { $0 == "~" || $0 == "/" }) else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
