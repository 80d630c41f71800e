@testable import SwitchyardCommandLine

/// `serve`'s options as `switchyard serve --help` lists them: each long name (`max-sessions`) with the default the
/// help shows, `nil` where it shows none.
struct HelpOptions {
    /// The options in the order of the help, `--help` and `--version` left out.
    let options: [(name: String, standard: String?)]

    /// Reads `ServeCommand`'s help, on lines wide enough that no text wraps.
    init() {
        var entries: [(name: String, text: String)] = []
        for line in ServeCommand.helpMessage(columns: 100_000).split(separator: "\n") {
            let trimmed = line.drop(while: { $0 == " " })
            if trimmed.hasPrefix("--") || trimmed.hasPrefix("-h, --") {
                let label = trimmed.split(separator: " ", maxSplits: 1)
                let name = label[0].hasPrefix("-h") ? "help" : String(label[0].dropFirst(2))
                entries.append((name, label.count > 1 ? String(label[1]) : ""))
            } else if !entries.isEmpty, line.hasPrefix("   ") {
                entries[entries.count - 1].text += " " + trimmed
            }
        }
        options = entries.filter { !["help", "version"].contains($0.name) }.map {
            ($0.name, Self.standard(in: $0.text))
        }
    }

    /// The default at the end of an option's help: `(default: 30m)`, `(values: text, json; default: text)`, or one
    /// the help's own words give (`(default: none)`), before a list of values.
    static func standard(in text: String) -> String? {
        var text = Substring(text.trimmingCharacters(in: .whitespaces))
        if text.hasSuffix(")"), let values = text.range(of: " (values: ", options: .backwards),
            !text[values.upperBound...].contains("default:")
        {
            text = text[..<values.lowerBound]
        }
        guard text.hasSuffix(")"), let start = text.range(of: "default: ", options: .backwards) else { return nil }
        return String(text[start.upperBound..<text.index(before: text.endIndex)])
    }
}
