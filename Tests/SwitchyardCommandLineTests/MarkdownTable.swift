import Foundation

/// The rows of the option tables of a Markdown file: each `| … |` line whose cells include a flag (`` `--name` ``).
struct MarkdownTable {
    /// Each row's cells, trimmed, by the flag's long name (`max-sessions`).
    let rows: [String: [String]]
    /// The file's path in the repository, for messages.
    let path: String

    /// Reads the tables of `path`, relative to the repository's root.
    init(_ path: String) throws {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appending(path: path), encoding: .utf8)
        var rows: [String: [String]] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("|") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let flag = cells.first(where: { $0.hasPrefix("`--") && $0.hasSuffix("`") }) else { continue }
            rows[String(flag.dropFirst(3).dropLast())] = cells
        }
        self.rows = rows
        self.path = path
    }

    /// A cell as its text reads, without Markdown's backticks: `` `1000`, `200` in memory `` → `1000, 200 in memory`.
    static func plain(_ cell: String) -> String { cell.replacingOccurrences(of: "`", with: "") }

    /// The first code span of a cell: `` `SWITCHYARD_APPS` (paths separated by `:`) `` → `SWITCHYARD_APPS`.
    static func firstCode(_ cell: String) -> String? {
        let parts = cell.split(separator: "`", omittingEmptySubsequences: false)
        return parts.count >= 3 ? String(parts[1]) : nil
    }
}
