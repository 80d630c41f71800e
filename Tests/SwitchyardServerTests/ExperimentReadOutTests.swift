import Foundation
import Switchyard
import SwitchyardJSON
import SwitchyardSessions
import Testing

@testable import SwitchyardCommandLine

/// A weighted rollout read as an experiment (`/api/admin/experiment`, `switchyard stats --experiment`) over
/// sessions of two shop versions driven through the real server into a SQLite store, with known answers.
@Suite("Experiment read-outs")
struct ExperimentReadOutTests {
    static let token = "experiment-token-0123456789"
    static let bearer = [("Authorization", "Bearer \(token)")]

    /// 40 sessions on version 1 (20 open the basket), then 10 on version 2 (8 open the basket, 3 refused a pop at
    /// the root), each with a rollout that gives every new session one version; then `body` on that second server.
    static func drive<Result>(_ store: TemporaryStore, _ body: (TestServer) throws -> Result) throws -> Result {
        let onlyFirst = try AppRollout.parse("shop=1:100,2:0").get()
        let onlySecond = try AppRollout.parse("shop=1:0,2:100").get()
        try store.withServer({
            $0.apps = [VersionedShop.v1, VersionedShop.v2]
            $0.rollouts = [onlyFirst]
        }) { server, _ in
            for index in 0..<40 {
                let id = try #require(try server.post("/api/sessions", nil).json["session"]?.stringValue)
                if index < 20 {
                    #expect(
                        try server.post("/api/sessions/\(id)/transitions", VersionedShop.push("basket")).status == 200)
                }
            }
        }
        return try store.withServer({
            $0.apps = [VersionedShop.v1, VersionedShop.v2]
            $0.rollouts = [onlySecond]
            $0.adminToken = Self.token
        }) { server, _ in
            for index in 0..<10 {
                let created = try server.post("/api/sessions", nil)
                #expect(created.json["app"]?["version"] == 2)
                let id = try #require(created.json["session"]?.stringValue)
                if index < 8 {
                    #expect(
                        try server.post("/api/sessions/\(id)/transitions", VersionedShop.push("basket")).status == 200)
                }
                if index >= 7 {
                    #expect(
                        try server.post(
                            "/api/sessions/\(id)/transitions", #"{"steps":[{"action":"popToRoot"},{"action":"pop"}]}"#
                        ).status == 409)
                }
            }
            return try body(server)
        }
    }

    static func variant(_ answer: JSONValue, _ version: Int) -> JSONValue? {
        answer["variants"]?.array?.first { $0["version"]?.int == version }
    }

    @Test func eachVersionsConversionIntervalsAndRefusalsAreCounted() throws {
        let store = try TemporaryStore()
        var ids: [String] = []
        let answer = try Self.drive(store) { server in
            ids = try (0..<2).compactMap { _ in try server.post("/api/sessions", nil).json["session"]?.stringValue }
            return try server.get("/api/admin/experiment?app=shop&goal=basket", headers: Self.bearer)
        }
        #expect(answer.status == 200, "\(answer.text)")
        let json = answer.json
        // Version 1 takes no new sessions here (weight 0): the control is version 2, which does.
        #expect(json["control"] == 2 && json["goal"] == "basket")
        let control = try #require(Self.variant(json, 2))
        #expect(control["sessions"] == 12 && control["converted"] == 8, "\(answer.text)")
        #expect(control["weight"] == 100 && control["difference"] == .null)
        #expect(control["interval"] == [0.391, 0.862], "Wilson's interval of 8 of 12")
        #expect(control["refusedSessions"] == 3 && control["refusals"] == 3)
        let pinned = try #require(Self.variant(json, 1))
        #expect(pinned["sessions"] == 40 && pinned["converted"] == 20 && pinned["conversion"] == 0.5)
        #expect(pinned["weight"] == 0 && pinned["refusedSessions"] == 0)
        #expect(pinned["difference"]?["value"] == -0.167, "0.5 − 8/12")
        #expect(pinned["difference"]?["significant"] == false, "too few sessions to tell: \(answer.text)")
        #expect(json["sampleRatio"]?["pValue"] == .null, "one version takes new sessions: no split to check")
        #expect(
            json["notes"]?.array?.contains {
                $0.stringValue?.hasPrefix("40 sessions are on versions the rollout") == true
            } == true, "\(answer.text)")
        for id in ids { #expect(!answer.text.contains(id), "no session id in an answer") }
    }

    @Test func aSplitUnlikeTheWeightsIsFlagged() throws {
        let store = try TemporaryStore()
        try Self.drive(store) { _ in }
        let program = CommandLineProgram(apps: [VersionedShop.v1, VersionedShop.v2], name: "shop", version: "test")
        let output = try StatsCommand.parse(
            [
                "--data", store.folder, "--log-level", "critical", "--rollout", "shop=1:50,2:50", "--experiment",
                "shop",
                "--goal", "basket", "--json",
            ]
        ).output(program: program)
        let json = try JSONValue(parsing: Array(output.utf8))
        #expect(json["sampleRatio"]?["chiSquare"] == 18 && json["sampleRatio"]?["mismatch"] == true, "\(output)")
        let text = try StatsCommand.parse(
            [
                "--data", store.folder, "--log-level", "critical", "--rollout", "shop=1:50,2:50", "--experiment",
                "shop",
                "--goal", "basket",
            ]
        ).output(program: program)
        #expect(text.contains("MISMATCH") && text.contains("v2") && text.contains("80.0 %"), "\(text)")
    }

    @Test func badQuestionsAreRefusedWithTheChoices() throws {
        let store = try TemporaryStore()
        try Self.drive(store) { server in
            let unknownGoal = try server.get("/api/admin/experiment?app=shop&goal=checkout", headers: Self.bearer)
            #expect(unknownGoal.status == 400 && unknownGoal.json["code"] == "unknownStep", "\(unknownGoal.text)")
            let noApp = try server.get("/api/admin/experiment?goal=basket", headers: Self.bearer)
            #expect(noApp.status == 400)
            let unknownApp = try server.get("/api/admin/experiment?app=mall&goal=basket", headers: Self.bearer)
            #expect(unknownApp.status == 400 && unknownApp.json["code"] == "unknownApp")
            let version = try server.get("/api/admin/experiment?app=shop&goal=basket&version=1", headers: Self.bearer)
            #expect(version.status == 400, "a read-out compares the versions: no version filter")
            #expect(try server.get("/api/admin/experiment?app=shop&goal=basket").status == 401)
        }
        try store.withServer({ $0.apps = [VersionedShop.v1, VersionedShop.v2] }) { server, _ throws in
            #expect(try server.get("/api/admin/experiment?app=shop&goal=basket").status == 404, "no admin token")
        }
    }
}
