import ArgumentParser
import Foundation
import Switchyard

/// `check`: checks the apps' declarations without serving (for CI): one line per finding; exits 1 on an error.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract:
            "Check the apps' declarations (tabs, routes, events, deep links, icons) without serving; exits 1 on an error."
    )

    mutating func run() throws {
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
}
