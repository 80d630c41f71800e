import Foundation
import Switchyard
import SwitchyardDefinitions
import SwitchyardJSON
import SwitchyardServer
import SwitchyardSessions
import Testing
import TodoDemo

@testable import SQLiteStore
@testable import SwitchyardCommandLine
@testable import SwitchyardServer

/// `switchyard replay`: stored sessions' recorded requests re-run on a candidate in memory, compared request by
/// request with what was recorded, and every divergence named.
@Suite("Replay of stored sessions")
struct ReplayTests {
    static let releases = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Examples/Definitions/Releases").standardized
    static let v1Text =
        (try? String(contentsOf: releases.appendingPathComponent("shop-v1.yaml"), encoding: .utf8)) ?? ""
    static let v2Text =
        (try? String(contentsOf: releases.appendingPathComponent("shop-v2.yaml"), encoding: .utf8)) ?? ""

    static func app(_ text: String) throws -> NavigationApp {
        try NavigationApp(definition: text, format: .yaml)
    }

    /// The shop's first release served from a SQLite store, three sessions driven through the API: one browses
    /// (a product, back, the basket), one wraps a gift, one names the stack's type, expects versions and restores.
    struct Recording {
        let store: TemporaryStore
        let browser: String
        let giftWrapper: String
        let restorer: String
        var all: Set<String> { [browser, giftWrapper, restorer] }
        /// Requests the three sessions made.
        static let requests = 8
    }

    static func record() throws -> Recording {
        let store = try TemporaryStore()
        let v1 = try app(v1Text)
        let ids = try store.withServer({ $0.apps = [v1] }) { server, _ in try drive(server) }
        return Recording(store: store, browser: ids.browser, giftWrapper: ids.giftWrapper, restorer: ids.restorer)
    }

    /// The three sessions of ``Recording``, driven on `server` (which serves the shop's first release).
    static func drive(_ server: TestServer) throws -> (browser: String, giftWrapper: String, restorer: String) {
        func session() throws -> DemoSession {
            let created = try server.post("/api/sessions", #"{"app":"shop"}"#)
            try #require(created.status == 201, "\(created.text)")
            return DemoSession(server: server, id: try #require(created.json["session"]?.stringValue), created: created)
        }
        let browser = try session()
        try browser.must(browser.transition(#"{"steps":[{"action":"push","route":"product","input":"tea"}]}"#))
        try browser.must(browser.transition(#"{"action":"back"}"#))
        try browser.must(browser.transition(#"{"steps":[{"action":"push","route":"basket"}]}"#))
        let wrapper = try session()
        try wrapper.must(wrapper.transition(#"{"steps":[{"action":"push","route":"product","input":"tea"}]}"#))
        let wrapped = try wrapper.must(wrapper.transition(#"{"steps":[{"action":"push","route":"giftWrap"}]}"#))
        #expect(wrapped.path == ["catalogue", "product", "giftWrap"])
        let restorer = try session()
        try restorer.must(
            restorer.transition(
                #"{"coordinator":"Shop","steps":[{"action":"push","route":"product","input":"jam"}],"expectedVersion":0}"#
            ))
        try restorer.must(server.post(restorer.base + "/restore", #"{"version":0}"#))
        try restorer.must(restorer.transition(#"{"steps":[{"action":"push","route":"basket"}]}"#))
        return (browser.id, wrapper.id, restorer.id)
    }

    /// Every store (memory, SQLite, PostgreSQL when the tests have it) gives the replay the same histories.
    @Test(arguments: ArchiveKind.available) func everyStoreReplaysAlike(kind: ArchiveKind) throws {
        let (archive, keeper) = try kind.open()
        defer { archive.close() }
        let server = try TestServer { configuration in
            configuration.apps = [try? Self.app(Self.v1Text)].compactMap(\.self)
            configuration.archive = archive
        }
        let ids = try Self.drive(server)
        server.stop()
        let candidate = ServerConfiguration(apps: [try Self.app(Self.v2Text)])
        let report = StoredReplay(source: archive, candidate: candidate).run()
        #expect(report.replayed == 3 && report.diverged == 1 && report.requests == Recording.requests)
        #expect(report.groups.first?.example == ids.giftWrapper, "\(report.lines)")
        withExtendedLifetime(keeper) {}
    }

    static func replay(
        _ recording: Recording, on apps: [NavigationApp], _ adjust: (inout ReplayOptions) -> Void = { _ in }
    ) throws -> ReplayReport {
        let archive = try recording.store.open()
        defer { archive.close() }
        var options = ReplayOptions()
        adjust(&options)
        return StoredReplay(source: archive, candidate: ServerConfiguration(apps: apps), options: options).run()
    }

    @Test func theSameVersionReplaysEverySessionClean() throws {
        let recording = try Self.record()
        let report = try Self.replay(recording, on: [Self.app(Self.v1Text)])
        #expect(report.failure == nil)
        #expect(report.replayed == 3 && report.clean == 3 && report.diverged == 0, "\(report.lines)")
        #expect(report.requests == Recording.requests)
        #expect(Set(report.sessions.map(\.session)) == recording.all)
        #expect(report.sessions.allSatisfy { $0.recordedApp == "shop@1" && $0.candidateApp == "shop@1" })
        // The store was only read: every session is where it was.
        let archive = try recording.store.open()
        defer { archive.close() }
        #expect(try archive.version(of: recording.restorer) == 3)
    }

    /// Determinism on the demo: the golden walk (events, alerts, a pending deep link completed after the login,
    /// gestures, sheets, refusals that made no version), and a guard's redirect whose pending route is entered after
    /// a later event, replay on the same app with no divergence.
    @Test func theDemosGoldenWalkAndAGuardsRedirectReplayClean() throws {
        let store = try TemporaryStore()
        let guarded = try store.withServer { server, _ in
            _ = try GoldenTests.transcript(server)
            let session = try server.createSession()
            try session.logIn()
            try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#))
            let redirected = try session.transition(
                #"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"admin"}]}"#)
            #expect(redirected.status == 409 && redirected.json["code"] == "redirected", "\(redirected.text)")
            let entered = try session.must(session.event(#"{"name":"setAdminMode","fields":{"adminMode":"true"}}"#))
            #expect(entered.path == ["authenticated", "settings", "settings", "admin"])
            try session.must(server.post(session.base + "/restore", #"{"version":3}"#))
            return session.id
        }
        let archive = try store.open()
        defer { archive.close() }
        let report = StoredReplay(source: archive, candidate: ServerConfiguration(apps: [TodoDemo.app])).run()
        #expect(report.replayed == 2 && report.diverged == 0 && report.cut == 0, "\(report.lines)")
        #expect(report.requests == 23, "17 of the walk, 6 of the guarded session")
        #expect(report.sessions.first { $0.session == guarded }?.requests == 6)
    }

    @Test func aRouteTheCandidateLacksDivergesTheSessionsThatUsedIt() throws {
        let recording = try Self.record()
        let withoutGiftWrap = Self.v1Text
            .replacingOccurrences(of: "      giftWrap: {target: GiftWrapScreen}\n", with: "")
            .replacingOccurrences(of: "route: giftWrap}", with: "route: basket}")
        let report = try Self.replay(recording, on: [Self.app(withoutGiftWrap)])
        #expect(report.replayed == 3 && report.clean == 2 && report.diverged == 1, "\(report.lines)")
        let diverged = try #require(report.sessions.first { $0.diverged })
        #expect(diverged.session == recording.giftWrapper)
        let divergence = try #require(diverged.firstDivergence)
        #expect(divergence.index == 1 && divergence.version == 2)
        #expect(divergence.recorded == .committed(path: ["catalogue", "product", "giftWrap"]))
        #expect(divergence.candidate == .refused(code: "unknownRoute", status: 400))
        #expect(
            divergence.reason
                == "route 'giftWrap' is not in the candidate; the request refused with unknownRoute, recorded as committed"
        )
        #expect(report.groups.map(\.example) == [recording.giftWrapper])
    }

    @Test func theNextReleaseReplaysCleanThroughItsRenamesAndNamesTheRemovedRoute() throws {
        let recording = try Self.record()
        let report = try Self.replay(recording, on: [Self.app(Self.v2Text)])
        #expect(report.replayed == 3 && report.clean == 2 && report.diverged == 1, "\(report.lines)")
        for result in report.sessions {
            #expect(result.recordedApp == "shop@1" && result.candidateApp == "shop@2")
            #expect(result.diverged == (result.session == recording.giftWrapper))
        }
        let group = try #require(report.groups.first)
        #expect(
            group.reason == "route 'giftWrap' was removed; the request refused with unknownRoute, recorded as committed"
        )
        #expect(group.sessions == 1 && group.example == recording.giftWrapper)
        // Renamed routes, a renamed coordinator type, a mapped expectedVersion and restore: all matched.
        let restorer = try #require(report.sessions.first { $0.session == recording.restorer })
        #expect(restorer.requests == 3 && restorer.cut == nil)
    }

    @Test func damagedRowsAndSessionsNoCandidateTakesAreDivergencesNotCrashes() throws {
        let recording = try Self.record()
        let v1 = try Self.app(Self.v1Text)
        let v2 = try Self.app(Self.v2Text)
        // A session of version 2 (the store holds a version the candidate does not know), and one of another app.
        let (newer, other) = try recording.store.withServer({ $0.apps = [v1, v2, TodoDemo.app] }) { server, _ in
            let newer = try #require(server.post("/api/sessions", #"{"app":"shop"}"#).json["session"]?.stringValue)
            let todo = try #require(server.post("/api/sessions", #"{"app":"todo"}"#).json["session"]?.stringValue)
            return (newer, todo)
        }
        let rows = try SQLiteConnection(path: recording.store.path)
        try rows.execute(
            "UPDATE history SET request = 'not json{' WHERE session = '\(recording.browser)' AND version = 2")

        let report = try Self.replay(recording, on: [v1])
        #expect(report.failure == nil)
        #expect(report.replayed == 4 && report.diverged == 2, "\(report.lines)")
        let browser = try #require(report.sessions.first { $0.session == recording.browser }?.firstDivergence)
        #expect(browser.index == 1 && browser.recorded == .committed(path: ["catalogue"]))
        #expect(browser.candidate == .refused(code: "malformedRequest", status: 400))
        #expect(browser.reason == "the request refused with malformedRequest, recorded as committed")
        let unknown = try #require(report.sessions.first { $0.session == newer }?.firstDivergence)
        #expect(unknown.index == nil && unknown.candidate == .refused(code: "sessionIncompatible", status: 410))
        #expect(unknown.reason.hasPrefix("the candidate cannot take the session"), "\(unknown.reason)")

        let named = try Self.replay(recording, on: [v1]) { $0.sessions = [other, "0123456789abcdef0123456789abcdef"] }
        #expect(named.replayed == 2 && named.diverged == 2, "\(named.lines)")
        #expect(named.sessions.map { $0.firstDivergence?.reason.isEmpty == false } == [true, true])
        #expect(named.sessions.last?.firstDivergence?.reason == "the store holds no session with this id")
    }

    @Test func boundsCutAndSay() throws {
        let recording = try Self.record()
        let report = try Self.replay(recording, on: [Self.app(Self.v1Text)]) {
            $0.sample = 2
            $0.maxRequests = 1
        }
        #expect(report.replayed == 2 && report.requests == 2 && report.cut == 2, "\(report.lines)")
        #expect(report.sessions.allSatisfy { $0.cut == "the bound of 1 requests per session was reached" })
        let later = try Self.replay(recording, on: [Self.app(Self.v1Text)]) {
            $0.since = Date().timeIntervalSince1970 + 60
        }
        #expect(later.replayed == 0)
    }

    @Test func theCommandExitsZeroOneOrTwoAndPrintsJSON() throws {
        let recording = try Self.record()
        let v1 = Self.releases.appendingPathComponent("shop-v1.yaml").path
        let v2 = Self.releases.appendingPathComponent("shop-v2.yaml").path
        func run(_ arguments: [String]) throws -> ReplayRun {
            try ReplayCommand.parse(arguments + ["--data", recording.store.folder])
                .outcome(
                    program: CommandLineProgram(apps: [], name: "switchyard", version: "0"), environment: [:],
                    logger: { _ in quietLogger })
        }
        let clean = try run(["--app", v1, "--json"])
        #expect(clean.status == 0 && clean.error == nil)
        let json = try JSONValue(parsing: Array(clean.output.joined().utf8))
        #expect(json["replayed"] == 3 && json["clean"] == 3 && json["diverged"] == 0)
        #expect(json["requests"] == .number(Double(Recording.requests)) && json["requestsPerSecond"] != nil)
        #expect(json["sessions"]?.array?.count == 3 && json["groups"]?.array?.isEmpty == true)

        let diverged = try run(["--app", v2, "--json"])
        #expect(diverged.status == 1)
        let report = try JSONValue(parsing: Array(diverged.output.joined().utf8))
        #expect(report["groups"]?[0]?["example"]?.stringValue == recording.giftWrapper)
        let session = report["sessions"]?.array?.first { $0["session"]?.stringValue == recording.giftWrapper }
        #expect(session?["diverged"] == true)
        #expect(session?["firstDivergence"]?["index"] == 1)
        #expect(session?["firstDivergence"]?["request"]?["steps"]?[0]?["route"] == "giftWrap")
        #expect(session?["firstDivergence"]?["recorded"]?["outcome"] == "committed")
        #expect(session?["firstDivergence"]?["candidate"]?["code"] == "unknownRoute")

        let human = try run(["--app", v2])
        #expect(human.status == 1)
        #expect(human.output.contains { $0.contains("3 sessions replayed: 2 clean, 1 diverged") }, "\(human.output)")
        #expect(human.output.contains { $0.contains("route 'giftWrap' was removed") })

        let broken = try run(["--app", "/no/such/app.yaml"])
        #expect(broken.status == 2 && broken.error != nil && broken.output.isEmpty)
        let nowhere = recording.store.folder + "/nowhere"
        let noStore = try ReplayCommand.parse(["--app", v1, "--data", nowhere]).outcome(
            program: CommandLineProgram(apps: [], name: "switchyard", version: "0"), environment: [:],
            logger: { _ in quietLogger })
        #expect(noStore.status == 2 && noStore.error?.contains("no session store") == true)
        #expect(!FileManager.default.fileExists(atPath: nowhere), "a replay makes no store")
    }

    /// A session migrated in the store (its history holds requests of both versions and the migration between):
    /// on the newer version it replays clean through the rename; on the older one it is cut at the migration.
    @Test func aSessionMigratedInTheStoreReplaysAcrossItsMigration() throws {
        let store = try TemporaryStore()
        let id = try store.withServer({ $0.apps = [VersionedShop.v1] }) { server, _ in
            let session = try server.createSession()
            try session.must(session.transition(VersionedShop.push("detail", "7")))
            return session.id
        }
        try store.withServer({ $0.apps = [VersionedShop.v2] }) { server, _ in
            let session = DemoSession(server: server, id: id, created: try server.get("/api/sessions/\(id)"))
            #expect(session.created.path == ["home", "item"], "read back migrated")
            try session.must(session.transition(#"{"action":"back"}"#))
            try session.must(session.transition(VersionedShop.push("item", "8")))
        }
        let archive = try store.open()
        defer { archive.close() }
        let newer = StoredReplay(source: archive, candidate: ServerConfiguration(apps: [VersionedShop.v2])).run()
        #expect(newer.replayed == 1 && newer.diverged == 0 && newer.cut == 0, "\(newer.lines)")
        #expect(newer.sessions.first?.requests == 3)
        let older = StoredReplay(source: archive, candidate: ServerConfiguration(apps: [VersionedShop.v1])).run()
        #expect(older.diverged == 0 && older.cut == 1, "\(older.lines)")
        #expect(older.sessions.first?.requests == 1)
        #expect(older.sessions.first?.cut == "it migrated to shop@2 at version 2, past the candidate's shop@1")
    }

    /// Requests and paths are renamed along a chain of two migrations; a route two coordinators rename differently
    /// stays as it was; a removed route is named with the version that removed it.
    @Test func renamesFollowTheChainAndAmbiguousRoutesStay() throws {
        let translation = RouteTranslation(chain: [
            (
                AppMigration(from: 1).renamingCoordinator("A", to: "B")
                    .renamingRoute("detail", to: "item", in: "A")
                    .renamingRoute("edit", to: "change", in: "A").renamingRoute("edit", to: "modify", in: "C")
                    .removingRoute("legacy", in: "A", landing: .below),
                AppVersion(name: "x", version: 2)
            ),
            (AppMigration(from: 2).renamingRoute("item", to: "product", in: "B"), AppVersion(name: "x", version: 3)),
        ])
        #expect(translation.route("detail") == "product" && translation.coordinator("A") == "B")
        #expect(translation.route("edit") == "edit")
        #expect(translation.removal(of: "legacy") == AppVersion(name: "x", version: 2))
        #expect(translation.removal(of: "detail") == nil)
        #expect(translation.path(["home", "detail", "legacy"]) == ["home", "product", "legacy"])
        let chain = try JSONValue(
            parsing: Array(
                #"{"coordinator":"A","steps":[{"action":"pushStack","routes":[{"route":"detail"}]},{"action":"push","route":"legacy"}]}"#
                    .utf8))
        let renamed = translation.transitions(chain)
        #expect(renamed["coordinator"] == "B")
        #expect(renamed["steps"]?[0]?["routes"]?[0]?["route"] == "product")
        #expect(renamed["steps"]?[1]?["route"] == "legacy")
        #expect(RouteTranslation.routes(in: chain) == ["detail", "legacy"])
        let step = try JSONValue(parsing: Array(#"{"action":"push","route":"detail","input":"7"}"#.utf8))
        #expect(translation.transitions(step)["route"] == "product")
        #expect(RouteTranslation(chain: []).transitions(step) == step)
    }

    /// `--since` takes a time or a span before now (``AnalyticsTime``, as every time bound); bounds below 1 are refused before anything is opened.
    @Test func theCommandsOptionsAreChecked() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(AnalyticsTime.parse("2h", now: now.timeIntervalSince1970) == 1_799_992_800.0)
        #expect(AnalyticsTime.parse("2027-01-15T07:00:00Z", now: now.timeIntervalSince1970) == 1_799_996_400.0)
        #expect(AnalyticsTime.parse("2027-01-15T07:00:00.500Z", now: now.timeIntervalSince1970) == 1_799_996_400.5)
        #expect(AnalyticsTime.parse("yesterday", now: now.timeIntervalSince1970) == nil)
        for arguments in [["--sample", "0"], ["--max-requests", "0"], ["--time-limit", "0"], ["--since", "soon"]] {
            #expect(throws: (any Error).self, "\(arguments)") { try ReplayCommand.parse(arguments) }
        }
        #expect(try ReplayCommand.parse(["--sample", "5", "--session", "a", "--session", "b"]).sessions == ["a", "b"])
    }

    /// A Swift app's new binary replays the store its old binary wrote: the program's own apps are the candidate.
    @Test func aSwiftAppsNewBinaryReplaysWhatItsOldOneStored() throws {
        let store = try TemporaryStore()
        let (renamed, legacy) = try store.withServer({ $0.apps = [VersionedShop.v1] }) { server, _ in
            let renamed = try server.createSession()
            try renamed.must(renamed.transition(VersionedShop.push("detail", "7")))
            try renamed.must(renamed.transition(#"{"coordinator":"ShopV1","steps":[{"action":"pop"}]}"#))
            let legacy = try server.createSession()
            try legacy.must(legacy.transition(VersionedShop.push("legacy")))
            return (renamed.id, legacy.id)
        }
        let newBinary = CommandLineProgram(apps: [VersionedShop.v2], name: "shop", version: "2")
        let run = try ReplayCommand.parse(["--data", store.folder, "--json"])
            .outcome(program: newBinary, environment: [:], logger: { _ in quietLogger })
        #expect(run.status == 1, "\(run.output) \(run.error ?? "")")
        let report = try JSONValue(parsing: Array(run.output.joined().utf8))
        let sessions = report["sessions"]?.array ?? []
        let clean = sessions.first { $0["session"]?.stringValue == renamed }
        #expect(clean?["diverged"] == false && clean?["requests"] == 2 && clean?["candidateApp"] == "shop@2")
        let diverged = sessions.first { $0["session"]?.stringValue == legacy }
        #expect(
            diverged?["firstDivergence"]?["reason"]
                == "route 'legacy' was removed; the request refused with unknownRoute, recorded as committed")
    }
}
