import Foundation
import Logging
import MicroHTTP
import SQLiteStore
import Switchyard
import SwitchyardJSON
import SwitchyardServer
import SwitchyardSessions
import TodoDemo

/// `switchyard replay`'s speed (issue 48): one demo session of 20 requests recorded through the API (a login,
/// todos pushed and popped, the settings tab and back), its history copied into a SQLite store under `count` ids,
/// then a replay of `sample` of them on the same app, one session per core at a time, as `switchyard replay
/// --sample` runs it. Every session must replay clean.
struct ReplaySuite {
    /// Where the store goes (`switchyard.sqlite` inside).
    let folder: String
    let count: Int
    let sample: Int

    struct Result: Encodable {
        let sessions: Int
        let sample: Int
        let requestsPerSession: Int
        /// The store's size on disk (with its write-ahead log).
        let bytes: Int
        let fillSeconds: Double
        let replayed: Int
        let clean: Int
        let diverged: Int
        let requests: Int
        let seconds: Double
        let requestsPerSecond: Double
        let threads: Int
        /// The reason of the largest group of divergences (there should be none).
        let divergence: String?
    }

    /// The requests of the recorded session, in order: 20.
    static let requests: [String] = {
        let login =
            #"{"steps":[{"action":"root","route":"authenticated","input":"bench"},{"action":"focus","route":"todos"}]}"#
        let todos = (1...6).flatMap { index in
            [
                #"{"coordinator":"TodosCoordinator","steps":[{"action":"push","route":"todo","input":"todo-\#(index)"}]}"#,
                #"{"action":"back"}"#,
            ]
        }
        let settings = [
            #"{"action":"selectTab","route":"settings"}"#,
            #"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"green"}]}"#,
            #"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"yellow"}]}"#,
            #"{"action":"back"}"#, #"{"action":"back"}"#,
            #"{"action":"selectTab","route":"todos"}"#,
            #"{"coordinator":"TodosCoordinator","steps":[{"action":"push","route":"todo","input":"last"}]}"#,
        ]
        return [login] + todos + settings
    }()

    func run() throws -> Result {
        let (created, history) = try Self.record()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/switchyard.sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let started = Harness.now()
        let archive = try SQLiteSessionArchive(path: path)
        let now = Date().timeIntervalSince1970
        let last = history.last?.version ?? 0
        _ = try StoreSuite.storeSessions(count, in: archive, created: created, now: now) { _, id in
            .change(
                session: id, base: 0, version: last, state: history.last?.state ?? created, history: history,
                reply: nil)
        }
        archive.close()
        let fillSeconds = Double(Harness.now() - started) / 1e9

        let source = try SQLiteSessionArchive(path: path)
        defer { source.close() }
        var options = ReplayOptions()
        options.sample = sample
        options.resultsKept = 100
        let report = StoredReplay(
            source: source, candidate: ServerConfiguration(apps: [TodoDemo.app]), options: options
        )
        .run()
        if let failure = report.failure { throw ReplaySuiteError.failed(failure) }
        let bytes = ["", "-wal"].reduce(0) { total, suffix in
            total + ((try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int) ?? 0)
        }
        return Result(
            sessions: count, sample: sample, requestsPerSession: history.count, bytes: bytes, fillSeconds: fillSeconds,
            replayed: report.replayed, clean: report.clean, diverged: report.diverged, requests: report.requests,
            seconds: report.seconds, requestsPerSecond: report.requestsPerSecond, threads: options.threads,
            divergence: report.groups.first?.reason)
    }

    /// The demo session's first state and its history, recorded by the API over a store in memory.
    static func record() throws -> (created: [UInt8], history: [StoredChange]) {
        let archive = MemorySessionArchive()
        var configuration = ServerConfiguration(apps: [TodoDemo.app])
        configuration.archive = archive
        configuration.sessionCreationsPerMinute = 0
        let api = SwitchyardAPI(
            configuration: configuration, logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() })
        func send(_ target: String, _ body: String?) throws -> HTTPResponse {
            var headers = HTTPHeaders([("Host", "localhost")])
            if body != nil { headers.add(name: "Content-Type", value: "application/json") }
            let response = try api.handle(
                HTTPRequest(method: "POST", target: target, headers: headers, body: Array((body ?? "").utf8)))
            guard (200..<300).contains(response.status) else { throw ReplaySuiteError.refused(target, body ?? "") }
            return response
        }
        guard case .bytes(let bytes) = try send("/api/sessions", nil).body,
            let id = try JSONValue(parsing: bytes)["session"]?.stringValue
        else { throw ReplaySuiteError.refused("/api/sessions", "") }
        for request in requests { _ = try send("/api/sessions/\(id)/transitions", request) }
        guard let created = try archive.state(of: id, at: 0) else { throw ReplaySuiteError.refused(id, "state 0") }
        return (created, try archive.history(of: id, after: 0, limit: 1000))
    }
}

enum ReplaySuiteError: Error {
    case refused(String, String)
    case failed(String)
}
