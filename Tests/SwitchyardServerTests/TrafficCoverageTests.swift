import Foundation
import SwitchyardExplorer
import SwitchyardJSON
import SwitchyardSessions
import Testing
import TodoDemo

@testable import SwitchyardCommandLine

/// Coverage from real traffic (`/api/admin/coverage`, `switchyard stats --coverage`): the demo's explored
/// transitions the sessions driven through the real server took, with known counts.
@Suite("Traffic coverage")
struct TrafficCoverageTests {
    static let bearer = AnalyticsTests.bearer
    /// The transitions ``AnalyticsTests/drive(_:)`` takes: (from, action, to) → times (each by as many sessions).
    static let taken: [String: Int] = [
        "onboarding/welcome|event completeOnboarding|unauthenticated/login": 20,
        "unauthenticated/login|event login|authenticated/home/favourites": 10,
        "authenticated/home/favourites|focus todos|authenticated/todos/list": 5,
        "authenticated/todos/list|push todo|authenticated/todos/list/todo": 5,
    ]

    /// Deep enough for the transitions driven (the todo is 4 actions from the start), quick in a debug build.
    static let limits = ExplorationLimits(depth: 4)

    /// The coverage at `path`, once the app's graph is explored: the first request starts the exploration and is
    /// answered 503 with `Retry-After`, as the ones after it until it is done.
    static func coverage(_ server: TestServer, _ path: String) throws -> Reply {
        for _ in 0..<1200 {
            let answer = try server.get(path, headers: bearer)
            guard answer.status == 503 else { return answer }
            #expect(answer.json["code"] == "notReady" && answer.header("Retry-After") == "2", "\(answer.text)")
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw CoverageNotReady()
    }

    struct CoverageNotReady: Error {}

    static func rows(_ value: JSONValue?) -> [String: (taken: Int, sessions: Int)] {
        var rows: [String: (taken: Int, sessions: Int)] = [:]
        for row in value?.array ?? [] {
            let key = ["from", "action", "to"].compactMap { row[$0]?.stringValue }.joined(separator: "|")
            rows[key] = (row["taken"]?.int ?? -1, row["sessions"]?.int ?? -1)
        }
        return rows
    }

    @Test(arguments: [ArchiveKind.memory, .sqlite])
    func theEndpointCountsTheExploredTransitionsTheSessionsTook(kind: ArchiveKind) throws {
        let (archive, storage) = try kind.open()
        defer { _ = storage }
        try withServer({
            $0.archive = archive
            $0.adminToken = AnalyticsTests.token
            $0.coverageExploration = Self.limits
        }) { server in
            let secrets = try AnalyticsTests.drive(server)
            let first = try server.get("/api/admin/coverage", headers: Self.bearer)
            #expect(
                first.status == 503 && first.json["code"] == "notReady", "the graph is explored first: \(first.text)")
            let answer = try Self.coverage(server, "/api/admin/coverage")
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.header("Cache-Control") == "no-store")
            #expect(answer.json["sessions"] == 30 && answer.json["changes"] == 40)
            let edges = Self.rows(answer.json["edges"])
            let taken = edges.filter { $0.value.taken > 0 }
            #expect(taken.mapValues(\.taken) == Self.taken, "\(answer.text)")
            #expect(taken.mapValues(\.sessions) == Self.taken, "each session took each transition once")
            #expect(answer.json["covered"] == 4)
            let total = answer.json["transitions"]?.int ?? 0
            #expect(total == edges.count && total > 4 && total <= answer.json["explored"]?.int ?? 0)
            #expect(answer.json["unexplored"]?.array?.isEmpty == true)
            var screens: [String: Int] = [:]
            for row in answer.json["screens"]?.array ?? [] {
                screens[row["screen"]?.stringValue ?? ""] = row["sessions"]?.int
            }
            #expect(
                screens == [
                    "onboarding/welcome": 30, "unauthenticated/login": 20, "authenticated/home/favourites": 10,
                    "authenticated/todos/list": 5, "authenticated/todos/list/todo": 5,
                ])
            for secret in secrets { #expect(!answer.text.contains(secret), "the answer holds no session data") }

            // A funnel: only the sessions that complete it; a window: only the sessions started in it.
            let funnel = try server.get("/api/admin/coverage?steps=favourites&app=todo", headers: Self.bearer)
            #expect(funnel.json["sessions"] == 10, "\(funnel.text)")
            #expect(
                Self.rows(funnel.json["edges"])["onboarding/welcome|event completeOnboarding|unauthenticated/login"]?
                    .taken == 10)
            let later = try server.get("/api/admin/coverage?since=2099-01-01", headers: Self.bearer)
            #expect(later.json["sessions"] == 0 && later.json["covered"] == 0)
            #expect(later.json["notes"]?.strings?.first == "no stored session matches the filters")

            for path in [
                "/api/admin/coverage?steps=checkout", "/api/admin/coverage?app=shop", "/api/admin/coverage?colour=red",
                "/api/admin/coverage?version=9",
            ] {
                #expect(try server.get(path, headers: Self.bearer).status == 400, "\(path)")
            }
            #expect(try server.get("/api/admin/coverage").status == 401, "the token is required")
        }
        try withServer { server in
            let answer = try server.get("/api/admin/coverage", headers: Self.bearer)
            #expect(answer.status == 404, "no token: no endpoint")
        }
    }

    /// A published version always means the same definition: a release change (a rollout) keeps its graph, which
    /// a reload of the configured apps (a version may then mean another definition) drops.
    @Test func aReleaseChangeKeepsTheGraphAReloadOfTheConfiguredAppsDropsIt() throws {
        try withServer({
            $0.adminToken = AnalyticsTests.token
            $0.coverageExploration = Self.limits
        }) { server in
            #expect(try Self.coverage(server, "/api/admin/coverage").status == 200)
            let rollout = try server.request(
                "PUT", "/api/admin/apps/todo/rollout", body: #"{"shares":[{"version":1,"weight":100}]}"#,
                headers: Self.bearer)
            #expect(rollout.status == 200, "\(rollout.text)")
            let after = try server.get("/api/admin/coverage", headers: Self.bearer)
            #expect(after.status == 200, "the graph is kept: \(after.text)")
            #expect(server.api.reload(apps: [TodoDemo.app], checking: []) == .reloaded)
            let reloaded = try server.get("/api/admin/coverage", headers: Self.bearer)
            #expect(reloaded.status == 503 && reloaded.json["code"] == "notReady", "\(reloaded.text)")
            #expect(try Self.coverage(server, "/api/admin/coverage").status == 200)
        }
    }

    /// `switchyard stats --coverage` reads the store serve wrote, with the same counts.
    @Test func theStatsCommandReportsCoverage() throws {
        let store = try TemporaryStore()
        try store.withServer { server, _ in _ = try AnalyticsTests.drive(server) }
        let program = CommandLineProgram(apps: [TodoDemo.app], name: "switchyard", version: "test")
        func stats(_ arguments: [String]) throws -> String {
            try StatsCommand.parse(
                ["--data", store.folder, "--log-level", "critical", "--coverage", "--max-depth", "4"] + arguments
            )
            .output(program: program)
        }
        let json = try JSONValue(parsing: Array(try stats(["--json"]).utf8))
        #expect(Self.rows(json["edges"]).filter { $0.value.taken > 0 }.mapValues(\.taken) == Self.taken)
        let text = try stats([])
        let total = json["transitions"]?.int ?? 0
        let percent = (4000 / Double(total)).rounded() / 10
        #expect(text.contains("4 of \(total) transitions taken (\(percent) %)"), "\(text)")
        #expect(
            text.contains("    20        20  onboarding/welcome → event completeOnboarding → unauthenticated/login"))
        let funnel = try JSONValue(parsing: Array(try stats(["--coverage-steps", "todo", "--json"]).utf8))
        #expect(funnel["sessions"] == 5)
    }
}
