import ArgumentParser
import Foundation

/// `check`: checks the apps' declarations without serving (for CI): one line per finding; exits 1 on an error.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the apps' declarations (tabs, initial routes) without serving; exits 1 if one cannot work.")

    mutating func run() throws {
        var failed = false
        for app in CommandLineProgram.current.apps {
            let findings = app.check()
            if findings.isEmpty { print("app '\(app.name)': no problems") }
            for finding in findings {
                print("app '\(app.name)': \(finding)")
                failed = failed || finding.severity == .error
            }
        }
        if failed { throw ExitCode(1) }
    }
}
