import Foundation
import Switchyard
import SwitchyardDefinitions
import SwitchyardExplorer
import Testing

/// The suite `switchyard paths` writes, run by `switchyard test`'s runner against the server's API: every step lands
/// where the exploration said, and a server that answers otherwise fails the step.
@Suite("Generated test suites")
struct GeneratedSuiteTests {
    /// The API answering in process, as the suite's transport.
    struct InProcess: SuiteTransport {
        let server: TestServer

        func send(_ method: String, _ path: String, body: JSONValue?) throws -> (status: Int, body: JSONValue?) {
            let reply = try server.request(
                method, path, body: body.map { String(decoding: $0.serialized(), as: UTF8.self) })
            return (reply.status, reply.body.isEmpty ? nil : reply.json)
        }
    }

    private func trapApp() throws -> NavigationApp {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../explore/trap.yaml").standardized
        return try NavigationApp(definition: String(contentsOf: url, encoding: .utf8), format: .yaml)
    }

    @Test func theSuiteRunsGreenWithFullCoverage() throws {
        let app = try trapApp()
        let graph = try AppExplorer(app: app).explore()
        let suite = try TestSuite(graph, app: app)
        let result = try withServer({ $0.apps = [app] }) { server in
            SuiteRunner(transport: InProcess(server: server)).run(suite)
        }
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(result.covered == graph.transitions.count)
        #expect(result.coverageLine == "coverage: 100.0 % of \(graph.transitions.count) transitions")
    }

    @Test func aServerThatGoesElsewhereFailsTheStep() throws {
        let app = try trapApp()
        let suite = try TestSuite(try AppExplorer(app: app).explore(), app: app)
        let result = try withServer({ $0.apps = [app] }) { server in
            SuiteRunner(transport: Misrouting(inner: InProcess(server: server))).run(suite)
        }
        #expect(!result.failures.isEmpty)
        #expect(result.covered < suite.transitions)
        let failure = try #require(result.failures.first)
        #expect(failure.actual != failure.expected)
    }

    /// Sends every deep link and event as asked, but every transition to the root coordinator.
    struct Misrouting: SuiteTransport {
        let inner: InProcess

        func send(_ method: String, _ path: String, body: JSONValue?) throws -> (status: Int, body: JSONValue?) {
            guard path.hasSuffix("/transitions") else { return try inner.send(method, path, body: body) }
            return try inner.send(method, path, body: ["steps": [["action": "popToRoot"]]])
        }
    }
}
