import Testing

@testable import SwitchyardCommandLine

/// docs/configuration.md and docker/README.md say what the code does: every option with its environment variable
/// and the default `--help` shows (which is the code's: the options' initial values).
@Suite struct ConfigurationDocsTests {
    let help = HelpOptions()

    /// `--app` and `--rollout` list several values in one variable; every other option's is derived from its name.
    static func variable(of name: String) -> String {
        switch name {
        case "app": "SWITCHYARD_APPS"
        case "rollout": "SWITCHYARD_ROLLOUTS"
        default: OptionEnvironment.variable(of: name)
        }
    }

    @Test func everyOptionShowsItsDefault() {
        #expect(help.options.count > 30)
        for (name, standard) in help.options {
            #expect(standard != nil, "--\(name)'s help shows no default")
        }
    }

    @Test func theConfigurationPageListsEveryOptionWithItsVariableAndDefault() throws {
        let table = try MarkdownTable("docs/configuration.md")
        // | flag | environment | default | meaning |
        for (name, standard) in help.options {
            guard let row = table.rows[name] else {
                Issue.record("--\(name) is not in \(table.path)")
                continue
            }
            #expect(MarkdownTable.firstCode(row[1]) == Self.variable(of: name), "--\(name) in \(table.path)")
            #expect(MarkdownTable.plain(row[2]) == standard, "--\(name)'s default in \(table.path)")
        }
        let listed = Set(help.options.map(\.name))
        for name in table.rows.keys where !listed.contains(name) {
            Issue.record("\(table.path) lists --\(name), which serve does not have")
        }
    }

    @Test func theImagesTableGivesTheBinarysDefaults() throws {
        let table = try MarkdownTable("docker/README.md")
        let standards = Dictionary(uniqueKeysWithValues: help.options.map { ($0.name, $0.standard) })
        #expect(table.rows.count > 20)
        // | environment variable | flag | default (image) | meaning |: the image's own value in parentheses last.
        for (name, row) in table.rows {
            guard let standard = standards[name] else {
                Issue.record("\(table.path) lists --\(name), which serve does not have")
                continue
            }
            #expect(MarkdownTable.firstCode(row[0]) == Self.variable(of: name), "--\(name) in \(table.path)")
            var cell = Substring(row[2])
            if cell.hasSuffix("`)"), let note = cell.range(of: " (`", options: .backwards) {
                cell = cell[..<note.lowerBound]
            }
            #expect(MarkdownTable.plain(String(cell)) == standard, "--\(name)'s default in \(table.path)")
        }
    }
}
