import ArgumentParser
import Foundation
import Switchyard
import SwitchyardExplorer

/// `paths`: explores one app and writes the suite of action sequences that takes every transition found at least
/// once, with the visible path expected after each step: JSON for `switchyard test`, a curl script, a test file for
/// `node --test` (the JavaScript client), or a Swift Testing file that runs the suite in process.
struct PathsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paths",
        abstract: "Write a test suite that takes every transition of an app's explored graph (edge coverage).",
        discussion:
            "Run it with: switchyard test --server URL SUITE (json), bash SUITE (curl), node --test SUITE (node), or "
            + "swift test (swift: writes FILE.swift and the suite FILE.json beside it). docs/testing-your-app.md"
    )

    /// What the suite is written as.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json, curl, node, swift
    }

    @Argument(help: "An app definition (JSON or YAML), or the name of an app built in (default: the first built in).")
    var app: String?

    @Option(help: "json (for switchyard test), curl (bash), node (node --test) or swift (needs --output FILE.swift).")
    var format: Format = .json

    @Option(name: [.short, .long], help: "Write the suite to this file (default: standard output).")
    var output: String?

    @OptionGroup var limits: ExplorationOptions

    func validate() throws {
        if format == .swift, output == nil || output?.hasSuffix(".swift") == false {
            throw ValidationError(
                "--format swift needs --output FILE.swift (the suite is written beside it as FILE.json)")
        }
    }

    mutating func run() throws {
        let apps = try ExploredApps.resolve(app.map { [$0] } ?? [])
        guard let chosen = apps.first else {
            ExploredApps.printError("no app to explore")
            throw ExitCode(2)
        }
        let graph: ExploredGraph
        let suite: TestSuite
        do {
            graph = try AppExplorer(app: chosen, limits: limits.value).explore()
            suite = try TestSuite(graph, app: chosen)
        } catch {
            ExploredApps.printError("\(chosen.identity) cannot be explored: its first state fails: \(error)")
            throw ExitCode(2)
        }
        if format == .swift, let output {
            let file = URL(fileURLWithPath: output)
            let json = file.deletingPathExtension().appendingPathExtension("json")
            try Data((String(decoding: suite.json.serialized(), as: UTF8.self) + "\n").utf8).write(to: json)
            try Data(suite.swiftTestFile(suiteFile: json.lastPathComponent).utf8).write(to: file)
        } else {
            let text =
                switch format {
                case .json, .swift: String(decoding: suite.json.serialized(), as: UTF8.self) + "\n"
                case .curl: suite.curlScript
                case .node: suite.nodeTestFile
                }
            if let output {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output))
            } else {
                print(text, terminator: "")
            }
        }
        let partial = graph.limitsReached.isEmpty ? "" : " (partial: \(graph.limitsReached.joined(separator: ", ")))"
        ExploredApps.printError(
            "\(suite.cases.count) cases, \(suite.cases.reduce(0) { $0 + $1.steps.count }) steps, covering "
                + "\(suite.transitions) transitions of \(chosen.identity)\(partial)")
    }
}
