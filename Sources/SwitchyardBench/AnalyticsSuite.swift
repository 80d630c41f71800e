import Foundation
import PostgresStore
import SQLiteStore
import Switchyard
import SwitchyardServer
import SwitchyardSessions
import TodoDemo

/// Analytics' cost (issue 49): fills a store with `count` demo sessions of `versions` versions each, as a server
/// writes them, then times a four-step funnel over all of them (`switchyard stats --funnel`, in process), three
/// times as the server runs it (two pages read at once) alternating with three times one page at a time. Half the
/// sessions go to a todo and then push and pop it, half switch tabs: the funnel welcome, login, favourites, todo
/// counts all, all, all and half, which the result carries to be checked.
struct AnalyticsSuite {
    /// A SQLite store in this folder, or the PostgreSQL database at this URL.
    enum Store {
        case sqlite(folder: String)
        case postgres(url: String)
    }

    let store: Store
    let count: Int
    let versions: Int
    /// Whether a SQLite store filled by an earlier run is read again instead of filled afresh.
    var reuse = false
    static let funnel = "welcome,login,favourites,todo"

    struct Result: Encodable {
        let store: String
        let sessions: Int
        let versions: Int
        let fillSeconds: Double
        /// Each run of the funnel over every session, in seconds.
        let funnelSeconds: [Double]
        let bestSeconds: Double
        /// The processor time (user and system) of each run, in seconds: what the wall time is without others'
        /// load on the machine.
        let cpuSeconds: [Double]
        /// The same runs reading one page at a time (``AnalyticsScan/pagesAtOnce`` 1), alternated with the others.
        let onePageSeconds: [Double]
        let onePageCPUSeconds: [Double]
        /// The sessions at each step (expected: all, all, all, half).
        let counts: [Int]
        let notes: [String]
    }

    func run() throws -> Result {
        let archive: any SessionArchive
        switch store {
        case .sqlite(let folder):
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = folder + "/switchyard.sqlite"
            if !reuse {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
            archive = try SQLiteSessionArchive(path: path)
        case .postgres(let url):
            // Batches of thousands of rows: longer than a request's 5 s on a loaded machine.
            archive = try PostgresSessionArchive(url: url, timeout: .seconds(300))
            // A fresh database for each run: the sessions an earlier run left are removed first.
            while case let ids = try archive.sessionIDs(ofApp: "todo", after: nil, limit: 1000), !ids.isEmpty {
                try archive.apply(ids.map { .remove(session: $0) })
            }
        }
        defer { archive.close() }
        let started = Harness.now()
        if !reuse { try fill(archive) }
        let fillSeconds = Double(Harness.now() - started) / 1e9

        var configuration = ServerConfiguration(apps: [TodoDemo.app])
        configuration.archive = archive
        let sessions = SwitchyardAPI(configuration: configuration).analyticsSessions()
        var seconds: [[Double]] = [[], []]
        var cpu: [[Double]] = [[], []]
        var report: FunnelReport?
        for _ in 0..<3 {
            for (variant, pages) in [2, 1].enumerated() {
                var scan = AnalyticsScan(maxSessions: count, timeLimit: 600)
                scan.pagesAtOnce = pages
                let start = Harness.now()
                let processor = Self.processorSeconds()
                report = try sessions.funnel(Self.funnel, filter: AnalyticsFilter(), scan: scan)
                seconds[variant].append(Double(Harness.now() - start) / 1e9)
                cpu[variant].append(Self.processorSeconds() - processor)
            }
        }
        let name: String
        switch store {
        case .sqlite: name = "sqlite"
        case .postgres: name = "postgres"
        }
        return Result(
            store: name, sessions: count, versions: versions, fillSeconds: fillSeconds, funnelSeconds: seconds[0],
            bestSeconds: seconds[0].min() ?? 0, cpuSeconds: cpu[0], onePageSeconds: seconds[1],
            onePageCPUSeconds: cpu[1], counts: report?.steps.map(\.sessions) ?? [], notes: report?.notes ?? [])
    }

    /// The processor time this process has used (user and system), in seconds.
    static func processorSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let time = { (value: timeval) in Double(value.tv_sec) + Double(value.tv_usec) / 1e6 }
        return time(usage.ru_utime) + time(usage.ru_stime)
    }

    /// The sessions, 500 per write.
    private func fill(_ archive: any SessionArchive) throws {
        let created = try TodoDemo.app.makeEngine().restoreDocument()
        // History entries keep a small document: the server mostly stores a delta from the version before.
        let state = Array(#"{"delta":"\#(String(repeating: "x", count: 240))"}"#.utf8)
        let now = Date().timeIntervalSince1970
        let todo: [(String, [String])] = [
            (#"{"name":"completeOnboarding"}"#, ["unauthenticated", "login"]),
            (#"{"name":"login","fields":{"username":"bench"}}"#, ["authenticated", "home", "favourites"]),
            (#"{"action":"selectTab","route":"todos"}"#, ["authenticated", "todos", "list"]),
        ]
        let push = (#"{"action":"push","route":"todo","input":"milk"}"#, ["authenticated", "todos", "list", "todo"])
        let pop = (#"{"action":"back"}"#, ["authenticated", "todos", "list"])
        let profile = (#"{"action":"selectTab","route":"profile"}"#, ["authenticated", "profile"])
        let home = (#"{"action":"selectTab","route":"home"}"#, ["authenticated", "home", "favourites"])
        _ = try StoreSuite.storeSessions(count, in: archive, created: created, now: now) { index, id in
            var way = Array(todo.prefix(2))
            if index % 2 == 0 {
                way.append(todo[2])
                while way.count < versions { way.append(way.count % 2 == 1 ? push : pop) }
            } else {
                while way.count < versions { way.append(way.count % 2 == 0 ? profile : home) }
            }
            let history = way.prefix(versions).enumerated().map { offset, step in
                StoredChange(
                    version: offset + 1, time: now + Double(offset + 1),
                    source: step.0.hasPrefix(#"{"name""#) ? .event : .api, request: Array(step.0.utf8),
                    visiblePath: step.1, state: state)
            }
            return .change(session: id, base: 0, version: versions, state: created, history: history, reply: nil)
        }
    }
}
