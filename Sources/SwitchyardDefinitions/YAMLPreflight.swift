/// What is refused in YAML before the YAML library sees it, because the library would crash or run for ever on it:
/// nesting deeper than ``maxDepth`` (its parser recurses), anchors and aliases (an alias expands what it names,
/// so a few hundred bytes can stand for billions of nodes), and keys that are not scalars (the library's
/// constructor stops the process on them). None of these has a use in an app definition.
enum YAMLPreflight {
    static let maxDepth = 64

    /// Why `text` is refused; nil when it may be parsed.
    static func refusal(_ text: String) -> String? {
        var flowDepth = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let indentation = line.prefix { $0 == " " || $0 == "-" || $0 == "\t" }
            if indentation.count > maxDepth * 4 {
                return "the YAML is indented deeper than \(maxDepth * 4) columns"
            }
            if line.drop(while: { $0 == " " }).hasPrefix("? ") || line.drop(while: { $0 == " " }) == "?" {
                return "YAML complex keys ('? ') are not supported: keys are names"
            }
            var quote: Character?
            var previous: Character = " "  // the last character that is not a space
            var prior: Character = " "  // the character just before
            var closedAt: Int?
            for (offset, character) in line.enumerated() {
                defer { prior = character }
                if let open = quote {
                    if character == open { quote = nil }
                    previous = character
                    continue
                }
                if character == "#", prior == " " || prior == "\t" { break }
                let startsToken = offset == 0 || " [{,:-".contains(previous)
                if character == "\"" || (character == "'" && startsToken) {
                    quote = character
                } else if character == "[" || character == "{" {
                    flowDepth += 1
                    if flowDepth > maxDepth { return "the YAML nests deeper than \(maxDepth) levels" }
                } else if character == "]" || character == "}" {
                    flowDepth = max(0, flowDepth - 1)
                    closedAt = offset
                } else if character == ":", closedAt != nil {
                    return "YAML keys that are lists or objects are not supported: keys are names"
                } else if character == "&" || character == "*", startsToken,
                    let next = line.dropFirst(offset + 1).first,
                    next.isLetter || next.isNumber || next == "_" || next == "-"
                {
                    return
                        "YAML anchors and aliases ('\(character)\(next)…') are not supported; quote text that starts with '\(character)'"
                }
                if character != " " { previous = character }
                if !"]} ".contains(character) { closedAt = nil }
            }
        }
        return nil
    }
}
