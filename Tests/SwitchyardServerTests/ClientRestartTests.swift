import Foundation
import HTTPTestSupport
import SwitchyardClient
import SwitchyardJSON
import Testing

/// The real `switchyard` binary on a SQLite store, killed with `kill -9` three times while the Swift client follows a
/// session and sends it 1,000 intents: every intent is applied exactly once, none is lost, and the client ends on
/// the server's final state.
@Suite("Swift client: a server killed three times")
struct ClientRestartTests {
    /// `switchyard serve` as a child process on a fixed port and data folder.
    final class ServerProcess: @unchecked Sendable {
        static let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../.build/debug/switchyard").standardizedFileURL
        let port: UInt16
        let data: String
        private var process: Process?

        init(data: String) throws {
            self.data = data
            port = try Self.freePort()
        }

        func start() async throws {
            let process = Process()
            process.executableURL = Self.binary
            process.arguments = [
                "serve", "--data", data, "--port", String(port), "--public", publicFolder, "--session-create-rate", "0",
                "--log-level", "warning",
                // Every version kept, so that each intent can be read back from the history.
                "--history-retention", "all", "--max-history", "16M",
            ]
            let log = FileHandle(forWritingAtPath: data + "/server.log") ?? .nullDevice
            log.seekToEndOfFile()
            process.standardOutput = log
            process.standardError = log
            try process.run()
            self.process = process
            let ready = await waitUntil(within: 30) {
                (try? RawConnection(port: port, timeout: 1).exchange("GET", "/healthz").status) == 200
            }
            guard ready else { throw ServerProcessError("the server did not answer /healthz within 30 s") }
        }

        func kill9() {
            guard let process else { return }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            self.process = nil
        }

        /// A new session past onboarding and login (versions 1 and 2): its id.
        func loggedInSession() throws -> String {
            let (created, document) = try request("POST", "/api/sessions")
            try #require(created == 201)
            let id = try #require(document["session"]?.stringValue)
            for event in [#"{"name":"completeOnboarding"}"#, #"{"name":"login","fields":{"username":"ada"}}"#] {
                try #require(try request("POST", "/api/sessions/\(id)/events", event).0 == 200)
            }
            return id
        }

        func request(_ method: String, _ path: String, _ body: String? = nil) throws -> (Int, JSONValue) {
            let answer = try RawConnection(port: port, timeout: 10).exchange(method, path, body: body)
            return (answer.status, (try? JSONValue(parsing: answer.body)) ?? .null)
        }

        /// A port free now on the loopback interface.
        private static func freePort() throws -> UInt16 {
            let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(socket) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
                }
            }
            guard bound else { throw ServerProcessError("no free port") }
            return UInt16(bigEndian: address.sin_port)
        }
    }

    struct ServerProcessError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Intent `index` of a run: a push, then a pop. Neither is idempotent: applied twice, either shows (a deeper
    /// stack, or a pop too many: 409).
    static func pushOrPop(_ index: Int) -> Intent {
        .transition(
            [index.isMultiple(of: 2) ? .push("todo", input: "buy-milk") : .pop], coordinator: "TodosCoordinator")
    }

    /// Offline for 10 s (the server stopped): the intents wait in their file, outlive the queue, and are applied once
    /// each when the server is back.
    @Test func intentsSentDuringTenSecondsOfflineAreAppliedOnceBack() async throws {
        let store = try TemporaryStore()
        let server = try ServerProcess(data: store.folder)
        try await server.start()
        defer { server.kill9() }
        let id = try server.loggedInSession()
        server.kill9()
        let base = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
        let file = URL(fileURLWithPath: store.folder + "/offline.json")
        let away = try IntentQueue(server: base, session: id, file: file)
        let awayDeliveries = away.deliveries()
        for index in 0..<20 { try away.send(Self.pushOrPop(index)) }
        try await Task.sleep(for: .seconds(10))
        away.stop()
        for await _ in awayDeliveries {}
        #expect(away.pending.count == 20, "nothing answered while the server was away")

        try await server.start()
        let back = try IntentQueue(server: base, session: id, file: file)
        #expect(back.pending == away.pending, "the file kept them, ids and all")
        var applied = 0
        for await delivery in back.deliveries() {
            if case .applied = delivery { applied += 1 }
            if applied == 20 || back.pending.isEmpty { break }
        }
        back.stop()
        #expect(applied == 20)
        #expect(try server.request("GET", "/api/sessions/\(id)").1["version"]?.int == 2 + 20, "each applied once")
    }

    @Test func aThousandIntentsAcrossThreeKillsAreEachAppliedOnce() async throws {
        let store = try TemporaryStore()
        let server = try ServerProcess(data: store.folder)
        try await server.start()
        defer { server.kill9() }
        let id = try server.loggedInSession()
        let base = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
        let follower = SessionFollower(server: base, session: id)
        let updates = follower.updates()
        let queue = try IntentQueue(
            server: base, session: id, file: URL(fileURLWithPath: store.folder + "/intents.json"))
        let deliveries = queue.deliveries()
        let total = 1000
        let sent = (0..<total).map(Self.pushOrPop)
        for intent in sent { try queue.send(intent) }

        var applied = 0
        var refused: [ClientProblem] = []
        var kills = 0
        for await delivery in deliveries {
            switch delivery {
            case .applied: applied += 1
            case .refused(_, let problem): refused.append(problem)
            }
            if applied + refused.count == total { break }
            if applied == (kills + 1) * 250, kills < 3 {  // kill -9 at 250, 500 and 750, and start again
                kills += 1
                server.kill9()
                try await Task.sleep(for: .milliseconds(200))
                try await server.start()
            }
        }
        queue.stop()
        #expect(kills == 3)
        #expect(applied == total && refused.isEmpty, "applied \(applied), refused \(refused.prefix(3))")
        #expect(queue.pending.isEmpty, "lost: none")

        let (status, final) = try server.request("GET", "/api/sessions/\(id)")
        #expect(status == 200)
        let version = try #require(final["version"]?.int)
        #expect(version == 2 + total, "each intent made exactly one version: duplicates 0, lost 0")
        // The history holds exactly the intents sent, in order: a duplicate or a loss would break the alternation.
        var requests: [JSONValue] = []
        while requests.count < total {
            let (_, page) = try server.request(
                "GET", "/api/sessions/\(id)/history?after=\(2 + requests.count)&limit=1000")
            let entries = page["entries"]?.array ?? []
            if entries.isEmpty { break }
            requests += entries.compactMap { $0["request"] }
        }
        #expect(requests == sent.map { (try? JSONValue(parsing: Array($0.body))) ?? .null })
        var followed = -1
        for await update in updates {
            if case .state(let document) = update {
                followed = document.version
                if document.version == version {
                    #expect(document.json == final, "the follower ends on the server's state")
                    break
                }
            }
        }
        follower.stop()
        #expect(followed == version)
    }
}
