import ArgumentParser
import Foundation
import Switchyard
import SwitchyardDefinitions

/// `check`: checks app definition files (their names against the apps built in too), or the apps built in, without
/// serving (for CI): one line per finding; exits 1 on an error.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check app definitions (or, with none given, the apps built in) without serving; exits 1 on an error."
    )

    @Argument(help: "App definitions (JSON or YAML), or folders of them.")
    var files: [String] = []

    mutating func run() throws {
        if !files.isEmpty {
            try checkDefinitions()
            return
        }
        let apps = CommandLineProgram.current.apps
        let findings = NavigationApp.check(apps)
        for app in apps where !findings.contains(where: { $0.app == app.name }) {
            print("app '\(app.name)': no problems")
        }
        for (app, finding) in findings {
            print("app '\(app)': \(finding)")
        }
        if findings.contains(where: { $0.diagnostic.severity == .error }) { throw ExitCode(1) }
    }

    private func checkDefinitions() throws {
        let definitions = DefinitionFiles(paths: files)
        for file in definitions.files where file.diagnostics.isEmpty {
            print("\(file.path): app '\(file.app?.name ?? "")': no problems")
        }
        for (_, line) in definitions.lines { print(line) }
        for line in definitions.skippedLines { print(line) }
        // Names are compared with the apps built into this program too, as `serve` compares them.
        let duplicates = NavigationApp.checkNames(CommandLineProgram.current.apps + definitions.apps)
        for (app, finding) in duplicates { print("app '\(app)': \(finding)") }
        if definitions.hasErrors || !duplicates.isEmpty { throw ExitCode(1) }
    }
}
