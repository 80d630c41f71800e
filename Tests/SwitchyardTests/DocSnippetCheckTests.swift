import Foundation
import Testing

// Code samples in the docs are compiled, not copied by hand. A fenced ```swift block in README.md, docs/*.md or the
// DocC catalog that has `<!-- snippet: NAME -->` on the line before it must equal the region of that name in a
// Swift file under Tests/*/DocSnippets/ (between `// snippet: NAME` and `// end snippet`, the region's common
// indentation removed). `<!-- snippet: A B -->` is the regions A and B joined by a blank line (an import kept at
// file level, and statements that run inside a test). Every region is used by some block.
// After changing a region: SWITCHYARD_UPDATE_SNIPPETS=1 swift test --filter DocSnippetCheckTests rewrites the docs.

private let repository = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

private func files(under folder: String, where keep: (URL) -> Bool) -> [URL] {
    let root = repository.appending(path: folder)
    guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
    return walker.compactMap { $0 as? URL }.filter(keep).sorted { $0.path < $1.path }
}

/// The regions of every snippet file, by name; a malformed region is reported as an issue.
private func snippets() throws -> [String: String] {
    var found: [String: String] = [:]
    let sources = files(under: "Tests") {
        $0.pathExtension == "swift" && $0.deletingLastPathComponent().lastPathComponent == "DocSnippets"
    }
    #expect(!sources.isEmpty, "no Tests/*/DocSnippets/*.swift")
    for source in sources {
        var open: (name: String, lines: [Substring])?
        for line in try String(contentsOf: source, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("// snippet: ") {
                #expect(open == nil, "\(source.lastPathComponent): snippet inside snippet \(open?.name ?? "")")
                open = (String(trimmed.dropFirst("// snippet: ".count)), [])
            } else if trimmed == "// end snippet" {
                guard let region = open else {
                    Issue.record("\(source.lastPathComponent): `// end snippet` without a start")
                    continue
                }
                #expect(found[region.name] == nil, "snippet \(region.name) is defined twice")
                found[region.name] = dedented(region.lines)
                open = nil
            } else if open != nil {
                open?.lines.append(line)
            }
        }
        #expect(open == nil, "\(source.lastPathComponent): snippet \(open?.name ?? "") is not ended")
    }
    return found
}

private func dedented(_ lines: [Substring]) -> String {
    let indents = lines.filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix { $0 == " " }.count }
    let indent = indents.min() ?? 0
    return lines.map { $0.allSatisfy(\.isWhitespace) ? "" : String($0.dropFirst(indent)) }.joined(separator: "\n")
}

/// The documents whose swift blocks may be marked.
private func documents() -> [URL] {
    [repository.appending(path: "README.md")]
        + files(under: "docs") { $0.pathExtension == "md" }
        + files(under: "Sources/Switchyard/Switchyard.docc") { $0.pathExtension == "md" }
}

@Test func everyMarkedDocSampleIsItsCompiledSnippet() throws {
    let snippets = try snippets()
    let update = ProcessInfo.processInfo.environment["SWITCHYARD_UPDATE_SNIPPETS"] == "1"
    var used: Set<String> = []
    var marked = 0
    for document in documents() {
        let name = document.path.replacingOccurrences(of: repository.path + "/", with: "")
        let text = try String(contentsOf: document, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var index = 0
        while index < lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            index += 1
            guard line.hasPrefix("<!-- snippet:"), line.hasSuffix("-->") else { continue }
            marked += 1
            let names = line.dropFirst("<!-- snippet:".count).dropLast("-->".count).split(separator: " ").map(
                String.init)
            guard index < lines.count, lines[index] == "```swift",
                let end = lines[(index + 1)...].firstIndex(of: "```")
            else {
                Issue.record("\(name):\(index): `\(line)` is not followed by a ```swift block")
                continue
            }
            let block = lines[(index + 1)..<end].joined(separator: "\n")
            let missing = names.filter { snippets[$0] == nil }
            guard missing.isEmpty, !names.isEmpty else {
                Issue.record("\(name):\(index): no snippet named \(missing) in Tests/*/DocSnippets")
                continue
            }
            used.formUnion(names)
            let expected = names.map { snippets[$0]! }.joined(separator: "\n\n")
            if block != expected {
                if update {
                    lines.replaceSubrange(
                        (index + 1)..<end,
                        with: expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
                } else {
                    Issue.record(
                        """
                        \(name):\(index + 1): the swift block marked `snippet: \(names.joined(separator: " "))` differs from \
                        its compiled snippet in Tests/*/DocSnippets (SWITCHYARD_UPDATE_SNIPPETS=1 rewrites the doc)
                        """)
                }
            }
        }
        let updated = lines.joined(separator: "\n")
        if update, updated != text { try updated.write(to: document, atomically: true, encoding: .utf8) }
    }
    #expect(marked > 0, "no marked swift block found: is the repository at \(repository.path)?")
    #expect(
        Set(snippets.keys).subtracting(used).isEmpty,
        "snippets no doc shows: \(Set(snippets.keys).subtracting(used).sorted())")
}
