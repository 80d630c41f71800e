/// A parsed Mustache template: text, variable tags and sections, nested at most ``Template/maxSectionDepth`` deep.
enum MustacheNode: Sendable, Hashable {
    /// Text as it is.
    case text([UInt8])
    /// `{{name}}`, `{{{name}}}`, `{{&name}}`: the value's text (nothing is escaped).
    case variable(MustacheName)
    /// `{{#name}}…{{/name}}` (each element of a list, once for a true or a present value) or, `inverted`,
    /// `{{^name}}…{{/name}}` (once for false, nothing or an empty list).
    indirect case section(MustacheName, inverted: Bool, [MustacheNode])
}

/// A tag's name: a dotted path (`data.user.name`, `.`, `.name`) read through transforms (`count(data.todos)`,
/// `uppercased(item.title)`; `index()` reads the list element's position).
struct MustacheName: Sendable, Hashable {
    /// The name as written, which a section's closing tag repeats.
    let text: String
    /// The path's keys; empty for `.` (the current value) and for a transform of the position (`index()`).
    let keys: [String]
    /// Whether the path starts at the current value only (`.name`), not at the nearest value that has its first key.
    let fromCurrent: Bool
    /// Transforms, outermost first (`count(reversed(list))`: `count`, `reversed`).
    let transforms: [String]

    /// The name written `text` (trimmed); nil when it is not a name.
    init?(_ text: String) {
        self.text = text
        var rest = Substring(text)
        var transforms: [String] = []
        while rest.hasSuffix(")"), let open = rest.firstIndex(of: "(") {
            let transform = rest[..<open]
            guard !transform.isEmpty, transform.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                return nil
            }
            transforms.append(String(transform))
            rest = rest[rest.index(after: open)..<rest.index(before: rest.endIndex)]
        }
        self.transforms = transforms
        if rest == "." {
            keys = []
            fromCurrent = true
        } else if rest.isEmpty {
            guard !transforms.isEmpty else { return nil }
            keys = []
            fromCurrent = false
        } else {
            fromCurrent = rest.hasPrefix(".")
            let keys = rest.split(separator: ".", omittingEmptySubsequences: false).dropFirst(fromCurrent ? 1 : 0)
            guard keys.allSatisfy({ !$0.isEmpty && !$0.contains(where: { $0 == " " || $0 == "{" || $0 == "}" }) })
            else { return nil }
            self.keys = keys.map(String.init)
        }
    }
}
