import ArgumentParser
import Foundation
import Switchyard
import SwitchyardExplorer

/// `test`: runs a suite of `switchyard paths` against a live server: each case in a session of its own (removed
/// after), each failing step with the visible path expected and found and the problem; ends with the transitions
/// covered. Exits 1 on a failure.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run a suite of `switchyard paths` against a live server and report transition coverage.",
        discussion: "Exits 1 when a step fails, 2 when the suite cannot be read or the server reached."
    )

    @Option(help: "The server's base URL (http://host:port).")
    var server: String

    @Argument(help: "The suite (JSON, from switchyard paths --format json).")
    var suite: String

    @Option(help: "How many cases (sessions) run at once.")
    var concurrency = 4

    mutating func run() throws {
        let client: PlainHTTPClient
        let suite: TestSuite
        do {
            client = try PlainHTTPClient(baseURL: server)
            suite = try TestSuite(contentsOf: URL(fileURLWithPath: self.suite))
        } catch {
            ExploredApps.printError("\(error)")
            throw ExitCode(2)
        }
        let result = SuiteRunner(transport: client, concurrency: concurrency).run(suite)
        for failure in result.failures {
            print(failure)
        }
        print("\(result.cases - result.failures.count) of \(result.cases) cases passed; \(result.coverageLine)")
        if !result.failures.isEmpty { throw ExitCode(1) }
    }
}
