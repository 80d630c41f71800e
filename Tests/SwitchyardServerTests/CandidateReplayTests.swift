import Foundation
import Switchyard
import SwitchyardJSON
import SwitchyardServer
import Testing

@testable import SwitchyardServer

/// `POST|GET /api/admin/apps/{app}/versions/{version}/replay`: a bounded replay of the app's stored sessions on a
/// served candidate version before it takes traffic, its latest report kept in memory, and a rollout that requires
/// a clean one (`"requireCleanReplay": true`).
@Suite("Candidate replay endpoint")
struct CandidateReplayTests {
    static let bearer = AdminEndpointTests.bearer
    /// Version 1 again as version 3, with a migration from version 1 that changes nothing: the same behaviour.
    static let sameAsV1 = ReplayTests.v1Text.replacingOccurrences(
        of: "version: 1\n", with: "version: 3\nmigrations:\n  - from: 1\n")

    static func replay(_ server: TestServer, _ version: Int, _ body: String? = nil) throws -> Reply {
        try server.request(
            "POST", "/api/admin/apps/shop/versions/\(version)/replay", body: body, headers: bearer)
    }

    static func rollout(_ server: TestServer, to version: Int, requiringCleanReplay: Bool = true) throws -> Reply {
        try server.request(
            "PUT", "/api/admin/apps/shop/rollout",
            body: #"{"shares":[{"version":\#(version),"weight":100}],"requireCleanReplay":\#(requiringCleanReplay)}"#,
            headers: bearer)
    }

    /// What the store holds of `ids`: each session's version and history length.
    static func stored(_ server: TestServer, _ ids: [String]) throws -> [String: [JSONValue?]] {
        var held: [String: [JSONValue?]] = [:]
        for id in ids {
            let session = try server.get("/api/sessions/\(id)")
            let history = try server.get("/api/sessions/\(id)/history")
            held[id] = [session.json["version"], session.json["app"], .number(Double(history.json.array?.count ?? -1))]
        }
        return held
    }

    @Test func aCandidateReplaysTheStoredSessionsAndNamesThoseThatDiverge() throws {
        try withServer({ $0.adminToken = AdminEndpointTests.token }) { server in
            try #require(try PublishedAppsTests.publish(server, ReplayTests.v1Text, as: 1).status == 201)
            let ids = try ReplayTests.drive(server)
            try #require(try PublishedAppsTests.publish(server, ReplayTests.v2Text, as: 2).status == 201)
            let all = [ids.browser, ids.giftWrapper, ids.restorer]
            let before = try Self.stored(server, all)

            let none = try server.get("/api/admin/apps/shop/versions/2/replay", headers: Self.bearer)
            #expect(none.status == 404 && none.json["code"] == "noReplayYet", "\(none.text)")

            let diverged = try Self.replay(server, 2)
            #expect(diverged.status == 200, "\(diverged.text)")
            #expect(diverged.header("Cache-Control") == "no-store")
            let report = diverged.json
            #expect(report["candidate"] == ["name": "shop", "version": 2])
            #expect(report["replayed"] == 3 && report["clean"] == 2 && report["diverged"] == 1, "\(diverged.text)")
            let group = report["groups"]?.array?.first
            #expect(
                group?["reason"]
                    == "route 'giftWrap' was removed; the request refused with unknownRoute, recorded as committed")
            #expect(group?["example"]?.stringValue == ids.giftWrapper)
            let named = report["sessions"]?.array?.filter { $0["diverged"] == true }.compactMap { $0["session"] }
            #expect(named == [.string(ids.giftWrapper)])

            let latest = try server.get("/api/admin/apps/shop/versions/2/replay", headers: Self.bearer)
            #expect(latest.status == 200 && latest.json == report, "GET answers the latest report")

            try #require(try PublishedAppsTests.publish(server, Self.sameAsV1, as: 3).status == 201)
            let clean = try Self.replay(server, 3, "{}")
            #expect(clean.status == 200, "\(clean.text)")
            #expect(clean.json["replayed"] == 3 && clean.json["clean"] == 3 && clean.json["diverged"] == 0)
            let candidates = clean.json["sessions"]?.array?.compactMap { $0["candidateApp"]?.stringValue }
            #expect(candidates == ["shop@3", "shop@3", "shop@3"], "the sessions migrated to the candidate")

            let sampled = try Self.replay(server, 2, #"{"sample":1,"maxRequests":1,"timeLimit":2}"#)
            #expect(sampled.status == 200 && sampled.json["replayed"] == 1, "\(sampled.text)")
            let since = try Self.replay(server, 2, #"{"since":"2999-01-01T00:00:00Z"}"#)
            #expect(since.json["replayed"] == 0, "no session was used since then")

            #expect(try Self.stored(server, all) == before, "the store was only read")
            #expect(try server.get("/api/sessions/\(ids.browser)").json["app"]?["version"] == 1)
            let shop = try server.get("/api/admin/apps", headers: Self.bearer).json["apps"]?.array?.first {
                $0["name"] == "shop"
            }
            #expect(shop?["rollout"] == [["version": 1, "weight": 100]], "no traffic moved")
        }
    }

    @Test func aReplayIsBoundedAndItsBodyStrict() throws {
        try withServer({ $0.adminToken = AdminEndpointTests.token }) { server in
            try #require(try PublishedAppsTests.publish(server, ReplayTests.v1Text, as: 1).status == 201)
            for (body, limit) in [
                (#"{"sample":2001}"#, "from 1 to 2000"), (#"{"maxRequests":0}"#, "from 1 to 1000"),
                (#"{"timeLimit":31}"#, "from 1 to 30"),
            ] {
                let answer = try Self.replay(server, 1, body)
                #expect(answer.status == 400 && answer.json["code"] == "malformedRequest", "\(answer.text)")
                #expect(answer.json["detail"]?.stringValue?.contains(limit) == true, "\(answer.text)")
            }
            let unknown = try Self.replay(server, 1, #"{"samples":3}"#)
            #expect(unknown.status == 400 && unknown.json["code"] == "unknownMember", "\(unknown.text)")
            #expect(unknown.json["detail"]?.stringValue?.contains("did you mean 'sample'") == true)
            let since = try Self.replay(server, 1, #"{"since":"yesterday"}"#)
            #expect(since.status == 400, "\(since.text)")
            let notServed = try Self.replay(server, 9)
            #expect(notServed.status == 404 && notServed.json["code"] == "unknownVersion", "\(notServed.text)")
            #expect(try Self.replay(server, 0).status == 400)
            let query = try server.request(
                "POST", "/api/admin/apps/shop/versions/1/replay?sample=3", body: "{}", headers: Self.bearer)
            #expect(query.status == 400 && query.json["code"] == "unknownParameter")
        }
    }

    @Test func theEndpointIsAnAdminOne() throws {
        try withServer { server in
            let off = try Self.replay(server, 1)
            #expect(off.status == 404 && off.json["code"] == "noSuchEndpoint", "\(off.text)")
        }
        try withServer({ $0.adminToken = AdminEndpointTests.token }) { server in
            let wrong = [("Authorization", "Bearer release-token-0123456788")]
            for method in ["GET", "POST"] {
                let answer = try server.request(
                    method, "/api/admin/apps/shop/versions/1/replay", body: method == "POST" ? "{}" : nil,
                    headers: wrong)
                #expect(answer.status == 401 && answer.json["code"] == "adminTokenRequired")
            }
        }
    }

    @Test func aRolloutCanRequireACleanReplayFirst() throws {
        try withServer({ $0.adminToken = AdminEndpointTests.token }) { server in
            try #require(try PublishedAppsTests.publish(server, ReplayTests.v1Text, as: 1).status == 201)
            _ = try ReplayTests.drive(server)
            try #require(try PublishedAppsTests.publish(server, ReplayTests.v2Text, as: 2).status == 201)
            try #require(try PublishedAppsTests.publish(server, Self.sameAsV1, as: 3).status == 201)
            let generation = try server.get("/api/admin/apps", headers: Self.bearer).json["generation"]

            let unserved = try Self.rollout(server, to: 7)
            #expect(unserved.status == 422 && unserved.json["code"] == "invalidApps", "\(unserved.text)")
            let required = try Self.rollout(server, to: 3)
            #expect(required.status == 409 && required.json["code"] == "replayRequired", "\(required.text)")
            #expect(required.json["detail"]?.stringValue?.contains("shop@3 has no replay on this node") == true)

            _ = try Self.replay(server, 2)
            let diverged = try Self.rollout(server, to: 2)
            #expect(diverged.status == 409 && diverged.json["code"] == "replayDiverged", "\(diverged.text)")
            #expect(diverged.json["diverged"] == 1 && diverged.json["replayed"] == 3)
            #expect(diverged.json["detail"]?.stringValue?.contains("diverged: 1 of 3 sessions") == true)
            #expect(
                try server.get("/api/admin/apps", headers: Self.bearer).json["generation"] == generation,
                "nothing was changed")

            #expect(try Self.replay(server, 3).json["diverged"] == 0)
            let allowed = try Self.rollout(server, to: 3)
            #expect(allowed.status == 200, "\(allowed.text)")
            let shop = allowed.json["apps"]?.array?.first { $0["name"] == "shop" }
            #expect(shop?["rollout"] == [["version": 3, "weight": 100]])
            // Without the member, the rollout is not gated (and weight moving to a version that has it is not).
            #expect(try Self.rollout(server, to: 2, requiringCleanReplay: false).status == 200)
        }
    }

    @Test func replaysRunOneAtATimeAndTheLatestIsKept() throws {
        let replays = CandidateReplays()
        let candidate = AppVersion(name: "shop", version: 2)
        var inner: CandidateReplays.Latest?
        var ran = false
        let outer = replays.run(candidate, at: 1) {
            inner = replays.run(candidate, at: 2) {
                ran = true
                return ReplayReport()
            }
            return ReplayReport()
        }
        #expect(inner == nil && !ran, "a second replay while one runs is refused")
        #expect(outer?.time == 1 && replays.latest(candidate)?.time == 1)
        #expect(replays.latest(candidate)?.isClean == true)
        #expect(replays.latest(AppVersion(name: "shop", version: 3)) == nil)
        let busy = Problem(rendering: ReplayRefusal.busy, session: "")
        #expect(busy.status == 503 && busy.code == "replayBusy")
        #expect(busy.headers.contains { $0.0 == "Retry-After" && $0.1 == "5" })
        let failed = Problem(rendering: ReplayRefusal.required(candidate, failure: "the store failed"), session: "")
        #expect(failed.status == 409 && failed.code == "replayRequired")
        #expect(failed.detail.contains("the latest replay of shop@2 could not run (the store failed)"))
    }
}
