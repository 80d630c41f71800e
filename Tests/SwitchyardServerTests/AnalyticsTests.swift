import Foundation
import SwitchyardJSON
import SwitchyardSessions
import Testing
import TodoDemo

@testable import SwitchyardCommandLine

/// Funnels, paths and exits (`/api/admin/funnel|paths|exits`, `switchyard stats`) over sessions driven through the
/// real server, with known answers.
@Suite("Analytics")
struct AnalyticsTests {
    static let token = "analytics-token-0123456789"
    static let bearer = [("Authorization", "Bearer \(token)")]
    static let funnel = "/api/admin/funnel?steps=welcome,login,favourites,todo"
    static let way = [
        "onboarding/welcome", "unauthenticated/login", "authenticated/home/favourites", "authenticated/todos/list",
        "authenticated/todos/list/todo",
    ]

    /// 30 demo sessions: 20 past onboarding, 10 of them logged in, 5 of those on a todo; the last 3 refused a
    /// `back` on the welcome screen. Returns the ids and usernames, which no answer may hold.
    static func drive(_ server: TestServer) throws -> [String] {
        var secrets: [String] = []
        for index in 0..<30 {
            let session = try server.createSession()
            secrets.append(session.id)
            if index < 20 { try session.must(session.event(#"{"name":"completeOnboarding"}"#)) }
            if index < 10 {
                try session.must(session.event(#"{"name":"login","fields":{"username":"user-\#(index)-secret"}}"#))
                secrets.append("user-\(index)-secret")
            }
            if index < 5 {
                try session.must(session.transition(#"{"action":"selectTab","route":"todos"}"#))
                try session.must(
                    session.transition(
                        #"{"coordinator":"TodosCoordinator","steps":[{"action":"push","route":"todo","input":"buy-milk"}]}"#
                    ))
            }
            if index >= 27 { #expect(try session.transition(#"{"action":"back"}"#).status == 409) }
        }
        return secrets
    }

    static func counts(_ answer: Reply) -> [Int] {
        (answer.json["steps"]?.array ?? []).compactMap { $0["sessions"]?.int }
    }

    static func numbers(_ answer: Reply, _ member: String) -> [Double?] {
        (answer.json["steps"]?.array ?? []).map { step in
            if case .number(let value)? = step[member] { return value }
            return nil
        }
    }

    @Test(arguments: ArchiveKind.available)
    func theFunnelCountsTheSessionsThatReachedEachStepInOrder(kind: ArchiveKind) throws {
        let (archive, storage) = try kind.open()
        defer { _ = storage }
        try withServer({
            $0.archive = archive
            $0.adminToken = Self.token
        }) { server in
            let secrets = try Self.drive(server)
            let answer = try server.get(Self.funnel, headers: Self.bearer)
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.header("Cache-Control") == "no-store")
            #expect(answer.json["sessions"] == 30)
            #expect(Self.counts(answer) == [30, 20, 10, 5])
            #expect(Self.numbers(answer, "fromPrevious") == [1, 0.667, 0.5, 0.5])
            #expect(Self.numbers(answer, "fromFirst") == [1, 0.667, 0.333, 0.167])
            let medians = Self.numbers(answer, "medianSeconds")
            #expect(medians.first == .some(nil), "no time before the first step")
            #expect(medians.dropFirst().allSatisfy { $0 != nil && $0! >= 0 && $0! < 60 }, "\(medians)")
            #expect(answer.json["notes"]?.array?.isEmpty == true, "\(answer.text)")
            for secret in secrets { #expect(!answer.text.contains(secret), "the answer holds no session data") }

            // Events are steps too; an event needs a change of its own after the step before it.
            let events = try server.get(
                "/api/admin/funnel?steps=welcome,event:completeOnboarding,event:login,authenticated/todos",
                headers: Self.bearer)
            #expect(Self.counts(events) == [30, 20, 10, 5], "\(events.text)")
            let backwards = try server.get("/api/admin/funnel?steps=favourites,event:login", headers: Self.bearer)
            #expect(Self.counts(backwards) == [10, 0], "the login came before the favourites, not after")
        }
    }

    @Test(arguments: [ArchiveKind.memory, .sqlite])
    func pathsAndExitsCountTheWaysTakenAndWhereSessionsStopped(kind: ArchiveKind) throws {
        let (archive, storage) = try kind.open()
        defer { _ = storage }
        try withServer({
            $0.archive = archive
            $0.adminToken = Self.token
        }) { server in
            let secrets = try Self.drive(server)
            let paths = try server.get("/api/admin/paths?from=welcome&to=todo", headers: Self.bearer)
            #expect(paths.status == 200, "\(paths.text)")
            #expect(paths.json["started"] == 30 && paths.json["arrived"] == 5)
            #expect(paths.json["paths"]?[0]?["screens"]?.strings == Self.way)
            #expect(paths.json["paths"]?[0]?["sessions"] == 5 && paths.json["paths"]?.array?.count == 1)
            let short = try server.get("/api/admin/paths?from=login&to=favourites&top=1", headers: Self.bearer)
            #expect(short.json["paths"]?[0]?["screens"]?.strings == Array(Self.way[1...2]))

            let exits = try server.get("/api/admin/exits", headers: Self.bearer)
            #expect(exits.status == 200, "\(exits.text)")
            var ended: [String: Int] = [:]
            var refused: [String: JSONValue] = [:]
            for row in exits.json["screens"]?.array ?? [] {
                guard let screen = row["screen"]?.stringValue else { continue }
                ended[screen] = row["sessions"]?.int
                refused[screen] = row["refusals"]
            }
            #expect(
                ended == [
                    "onboarding/welcome": 10, "unauthenticated/login": 10, "authenticated/home/favourites": 5,
                    "authenticated/todos/list/todo": 5,
                ])
            #expect(refused["onboarding/welcome"] == ["cannotGoBack": 3])
            #expect(refused["unauthenticated/login"] == [:])
            for secret in secrets { #expect(!exits.text.contains(secret) && !paths.text.contains(secret)) }
        }
    }

    @Test func badInputIsRefusedWithTheChoices() throws {
        try withServer({ $0.adminToken = Self.token }) { server in
            _ = try Self.drive(server)
            let unknown = try server.get("/api/admin/funnel?steps=welcome,checkout", headers: Self.bearer)
            #expect(unknown.status == 400)
            #expect(unknown.header("Content-Type") == "application/problem+json")
            #expect(unknown.json["code"] == "unknownStep")
            let choices = unknown.json["choices"]?.strings ?? []
            #expect(choices.contains("favourites") && choices.contains("event:completeOnboarding"), "\(choices)")
            #expect(!choices.contains("checkout"))
            let parameter = try server.get("/api/admin/funnel?steps=welcome&colour=red", headers: Self.bearer)
            #expect(parameter.status == 400 && parameter.json["code"] == "unknownParameter")
            let app = try server.get("/api/admin/exits?app=shop", headers: Self.bearer)
            #expect(app.status == 400 && app.json["code"] == "unknownApp" && app.json["choices"]?.strings == ["todo"])
            let version = try server.get("/api/admin/funnel?steps=welcome&version=7", headers: Self.bearer)
            #expect(version.status == 400 && version.json["code"] == "unknownVersion")
            #expect(version.json["choices"]?.strings == ["1"])
            for path in [
                "/api/admin/funnel?steps=welcome&since=yesterday", "/api/admin/funnel?steps=welcome&version=one",
                "/api/admin/paths?from=welcome", "/api/admin/paths?from=welcome&to=todo&top=0",
                "/api/admin/paths?from=welcome&to=event:login", "/api/admin/funnel?steps=welcome,,todo",
                "/api/admin/funnel?steps=welcome&since=2026-11-29&until=2026-11-28",
            ] {
                let answer = try server.get(path, headers: Self.bearer)
                #expect(answer.status == 400, "\(path): \(answer.text)")
            }
            #expect(try server.get(Self.funnel).status == 401, "the token is required")
        }
        try withServer { server in
            for path in [Self.funnel, "/api/admin/paths?from=welcome&to=todo", "/api/admin/exits"] {
                let answer = try server.get(path, headers: Self.bearer)
                #expect(answer.status == 404 && answer.json["code"] == "noSuchEndpoint", "\(path) without a token")
            }
        }
    }

    @Test func anEmptyFunnelOrWindowAnswersZerosWithANote() throws {
        try withServer({ $0.adminToken = Self.token }) { server in
            let none = try server.get(Self.funnel, headers: Self.bearer)
            #expect(none.status == 200 && Self.counts(none) == [0, 0, 0, 0])
            #expect(none.json["notes"]?.strings == ["no stored session matches the filters"])
            _ = try Self.drive(server)
            let empty = try server.get("/api/admin/funnel?steps=", headers: Self.bearer)
            #expect(empty.status == 200 && empty.json["steps"]?.array?.isEmpty == true && empty.json["sessions"] == 30)
            #expect(empty.json["notes"]?.strings?.first?.contains("no steps") == true, "\(empty.text)")
            let later = try server.get(Self.funnel + "&since=2099-01-01", headers: Self.bearer)
            #expect(Self.counts(later) == [0, 0, 0, 0] && later.json["notes"]?.array?.count == 1)
            let window = try server.get(
                Self.funnel + "&since=1h&until=2099-01-01T00:00:00Z&app=todo&version=1", headers: Self.bearer)
            #expect(Self.counts(window) == [30, 20, 10, 5], "\(window.text)")
        }
    }

    /// Histories trimmed by retention are counted from their oldest kept entry, and the answer says so.
    @Test func trimmedHistoriesAreCountedAsFarAsTheyGoWithANote() throws {
        let archive = MemorySessionArchive(limits: StoreLimits(historyEntries: 2))
        try withServer({
            $0.archive = archive
            $0.adminToken = Self.token
        }) { server in
            let session = try server.createSession()
            try session.logIn()
            try session.must(session.transition(#"{"action":"selectTab","route":"todos"}"#))
            _ = try server.createSession()
            let answer = try server.get(Self.funnel, headers: Self.bearer)
            #expect(answer.status == 200)
            #expect(Self.counts(answer) == [1, 0, 0, 0], "the trimmed session's welcome is gone: \(answer.text)")
            let notes = answer.json["notes"]?.strings ?? []
            #expect(notes.contains { $0.hasPrefix("1 sessions' histories were trimmed by retention") }, "\(notes)")
            let exits = try server.get("/api/admin/exits", headers: Self.bearer)
            #expect(exits.json["screens"]?[0]?["sessions"] == 1 && exits.json["sessions"] == 2)
        }
    }

    /// A store that fails answers 503 with an incident, never 500; a store without a reading of its own (the
    /// protocol's default) counts the same, without the times from the creation screen, and says so.
    @Test func aFailingStoreIs503AndTheDefaultReadingCountsTheSame() throws {
        let archive = FaultyArchive(MemorySessionArchive())
        try withServer({
            $0.archive = archive
            $0.adminToken = Self.token
        }) { server in
            _ = try Self.drive(server)
            let answer = try server.get(Self.funnel, headers: Self.bearer)
            #expect(Self.counts(answer) == [30, 20, 10, 5], "\(answer.text)")
            #expect(Self.numbers(answer, "medianSeconds")[1] == nil, "no creation time: no time to the second step")
            #expect(Self.numbers(answer, "medianSeconds")[2] != nil)
            let notes = answer.json["notes"]?.strings ?? []
            #expect(
                notes == [
                    "30 sessions' creation time is not kept by this store: times from their first screen are left out"
                ])
            archive.failing.store(true, ordering: .relaxed)
            for path in [Self.funnel, "/api/admin/paths?from=welcome&to=todo", "/api/admin/exits"] {
                let failed = try server.get(path, headers: Self.bearer)
                #expect(failed.status == 503 && failed.json["code"] == "storeUnavailable", "\(path): \(failed.text)")
                #expect(failed.json["incident"]?.stringValue != nil)
            }
            archive.failing.store(false, ordering: .relaxed)
        }
    }

    /// `switchyard stats` reads the store serve wrote, with the same counts; its scan is bounded and says so.
    @Test func theStatsCommandCountsTheStoredSessions() throws {
        let store = try TemporaryStore()
        try store.withServer { server, _ in _ = try Self.drive(server) }
        let program = CommandLineProgram(apps: [TodoDemo.app], name: "switchyard", version: "test")
        func stats(_ arguments: [String]) throws -> String {
            try StatsCommand.parse(["--data", store.folder, "--log-level", "critical"] + arguments)
                .output(program: program)
        }
        let json = try JSONValue(
            parsing: Array(try stats(["--funnel", "welcome,login,favourites,todo", "--json"]).utf8))
        #expect((json["steps"]?.array ?? []).compactMap { $0["sessions"]?.int } == [30, 20, 10, 5])
        let text = try stats(["--funnel", "welcome,login,favourites,todo", "--version", "1", "--since", "1d"])
        #expect(text.contains("funnel over 30 sessions"), "\(text)")
        #expect(text.contains("favourites        10       50.0 %    33.3 %"), "\(text)")
        let bounded = try stats(["--exits", "--paths", "welcome,todo", "--max-sessions", "10", "--json"])
        let both = try JSONValue(parsing: Array(bounded.utf8))
        #expect(both["exits"]?["sessions"] == 10)
        #expect(both["paths"]?["notes"]?.strings?.contains { $0.contains("only the first 10 sessions") } == true)
        let exact = try JSONValue(parsing: Array(try stats(["--exits", "--max-sessions", "30", "--json"]).utf8))
        #expect(
            exact["sessions"] == 30
                && exact["notes"]?.strings == ["refusals are kept in a server's memory: ask GET /api/admin/exits"],
            "a bound met exactly cuts nothing; the JSON says refusals are not known here")
        #expect(throws: AnalyticsRefusal.self) { try stats(["--funnel", "welcome,checkout"]) }
        #expect(throws: AnalyticsRefusal.self) { try stats(["--exits", "--app", "shop"]) }
    }
}
