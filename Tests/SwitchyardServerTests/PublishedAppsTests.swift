import Foundation
import Switchyard
import SwitchyardJSON
import SwitchyardServer
import SwitchyardSessions
import Synchronization
import Testing

@testable import SwitchyardServer

/// Publishing, splitting and retiring app versions through the admin API (`/api/admin/apps/…`): checked before
/// anything changes, stored in the store's registry, served by every node of the store without a restart.
@Suite("Published apps")
struct PublishedAppsTests {
    static let bearer = [("Authorization", "Bearer \(AdminEndpointTests.token)")]
    static let releases = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Examples/Definitions/Releases")
    static let v1 = (try? String(contentsOf: releases.appendingPathComponent("shop-v1.yaml"), encoding: .utf8)) ?? ""
    static let v2 = (try? String(contentsOf: releases.appendingPathComponent("shop-v2.yaml"), encoding: .utf8)) ?? ""
    /// Version 3: version 2 again, with no migration from version 2 (only version 2's from version 1).
    static let v3 = v2.replacingOccurrences(of: "version: 2", with: "version: 3")

    static func publish(_ server: TestServer, _ text: String, as version: Int, app: String = "shop") throws -> Reply {
        try server.request(
            "PUT", "/api/admin/apps/\(app)/versions/\(version)", body: text, contentType: "application/yaml",
            headers: bearer)
    }

    static func rollout(_ server: TestServer, _ shares: [(Int, Int)]) throws -> Reply {
        let list = shares.map { #"{"version":\#($0.0),"weight":\#($0.1)}"# }.joined(separator: ",")
        return try server.request(
            "PUT", "/api/admin/apps/shop/rollout", body: #"{"shares":[\#(list)]}"#, headers: bearer)
    }

    static func newShopSession(_ server: TestServer) throws -> (id: String, version: JSONValue?) {
        let created = try server.post("/api/sessions", #"{"app":"shop"}"#)
        try #require(created.status == 201, "\(created.text)")
        return (try #require(created.json["session"]?.stringValue), created.json["app"]?["version"])
    }

    @Test func aPublishedVersionIsCheckedStoredAndServed() throws {
        try #require(!Self.v1.isEmpty && !Self.v2.isEmpty)
        try withServer({ $0.adminToken = AdminEndpointTests.token }) { server in
            #expect(try server.post("/api/sessions", #"{"app":"shop"}"#).json["code"] == "unknownApp", "not served yet")
            let first = try Self.publish(server, Self.v1, as: 1)
            #expect(first.status == 201, "\(first.text)")
            #expect(first.header("Location") == "/api/admin/apps/shop/versions/1")
            let shop = first.json["apps"]?.array?.first { $0["name"] == "shop" }
            #expect(shop?["versions"]?.array?.first?["source"] == "published")
            #expect(try Self.newShopSession(server).version == 1, "the first version of an app takes its sessions")

            #expect(try Self.publish(server, Self.v1, as: 1).status == 200, "the same definition again changes nothing")
            let changed = try Self.publish(server, Self.v1 + "\n# edited\n", as: 1)
            #expect(changed.status == 409 && changed.json["code"] == "releaseConflict", "versions never change")
            let mismatch = try Self.publish(server, Self.v2, as: 3)
            #expect(mismatch.status == 422 && mismatch.json["code"] == "invalidRelease", "\(mismatch.text)")
            let broken = try Self.publish(server, "name: shop\nversion: 4\nroot: Nowhere\n", as: 4)
            #expect(broken.status == 422 && broken.json["code"] == "invalidDefinition")
            #expect(broken.json["diagnostics"]?.array?.isEmpty == false)
            let json = try server.request(
                "PUT", "/api/admin/apps/shop/versions/2", body: Self.v2, contentType: "text/plain", headers: Self.bearer
            )
            #expect(json.status == 415)
            #expect(try Self.publish(server, "todo", as: 0).status == 400, "version numbers start at 1")

            let definition = try server.get("/api/admin/apps/shop/versions/1", headers: Self.bearer)
            #expect(definition.status == 200 && definition.text == Self.v1)
            #expect(definition.header("Content-Type") == "application/yaml")
            let configured = try server.get("/api/admin/apps/todo/versions/1", headers: Self.bearer)
            #expect(configured.status == 404)
            let todo = try Self.publish(
                server, Self.v1.replacingOccurrences(of: "name: shop", with: "name: todo"), as: 1, app: "todo")
            #expect(todo.status == 409, "a configured version cannot be published over: \(todo.text)")
        }
    }

    @Test func aNewVersionTakesNewSessionsOnlyOnceTheRolloutSaysSo() throws {
        try withServer({ $0.adminToken = AdminEndpointTests.token }) { server in
            _ = try Self.publish(server, Self.v1, as: 1)
            let old = try Self.newShopSession(server).id
            #expect(
                try server.post("/api/sessions/\(old)/transitions", VersionedShop.push("product", "tea")).status == 200)
            #expect(try Self.publish(server, Self.v2, as: 2).status == 201)
            #expect(try Self.newShopSession(server).version == 1, "publishing changes no traffic")
            #expect(try server.get("/api/sessions/\(old)").json["app"]?["version"] == 1)

            let unknown = try Self.rollout(server, [(1, 50), (7, 50)])
            #expect(unknown.status == 422 && unknown.json["code"] == "invalidApps", "\(unknown.text)")
            let extra = try server.request(
                "PUT", "/api/admin/apps/shop/rollout", body: #"{"shares":[{"version":2,"weight":1,"sticky":true}]}"#,
                headers: Self.bearer)
            #expect(extra.status == 400 && extra.json["code"] == "unknownMember")
            let split = try Self.rollout(server, [(2, 1)])
            #expect(split.status == 200, "\(split.text)")
            let shop = split.json["apps"]?.array?.first { $0["name"] == "shop" }
            #expect(shop?["rollout"] == [["version": 2, "weight": 1]])
            #expect(try Self.newShopSession(server).version == 2)
            let migrated = try server.get("/api/sessions/\(old)")
            #expect(migrated.json["app"]?["version"] == 2, "version 1's sessions migrate when next read")
            #expect(migrated.json["visible"]?["screen"]?["title"] == "Item tea")
        }
    }

    @Test func retiringAConfiguredVersionSaysTheOneWayToDoIt() throws {
        try withServer({ $0.adminToken = AdminEndpointTests.token }) { server in
            let configured = try server.request("DELETE", "/api/admin/apps/todo/versions/1", headers: Self.bearer)
            #expect(configured.status == 409)
            let detail = configured.json["detail"]?.stringValue ?? ""
            #expect(detail.contains("take its definition out of every node's --app and reload them"), "\(detail)")
            let unknown = try server.request("DELETE", "/api/admin/apps/shop/versions/9", headers: Self.bearer)
            #expect(unknown.status == 404)
            #expect(unknown.json["detail"]?.stringValue?.contains("neither published nor configured") == true)
        }
    }

    @Test func retiringIsRefusedWhileSessionsWouldBeLostUnlessAFallbackIsNamed() throws {
        try withServer({ $0.adminToken = AdminEndpointTests.token }) { server in
            _ = try Self.publish(server, Self.v2, as: 2)
            let session = try Self.newShopSession(server).id
            #expect(
                try server.post("/api/sessions/\(session)/transitions", VersionedShop.push("item", "tea")).status == 200
            )
            #expect(try Self.publish(server, Self.v3, as: 3).status == 201)
            let taking = try server.request("DELETE", "/api/admin/apps/shop/versions/2", headers: Self.bearer)
            #expect(taking.status == 409 && taking.json["code"] == "releaseConflict", "it takes new sessions")
            #expect(try Self.rollout(server, [(3, 1)]).status == 200)
            #expect(try server.get("/api/sessions/\(session)").json["app"]?["version"] == 2, "pinned: no migration")

            let lost = try server.request("DELETE", "/api/admin/apps/shop/versions/2", headers: Self.bearer)
            #expect(lost.status == 409 && lost.json["code"] == "sessionsWouldBeLost", "\(lost.text)")
            #expect(lost.json["sessions"]?["lost"] == 1)
            #expect(try server.get("/api/sessions/\(session)").json["app"]?["version"] == 2, "nothing changed")
            let typo = try server.request(
                "DELETE", "/api/admin/apps/shop/versions/2?fallbak=3", headers: Self.bearer)
            #expect(typo.status == 400 && typo.json["code"] == "unknownParameter")
            let itself = try server.request(
                "DELETE", "/api/admin/apps/shop/versions/2?fallback=2", headers: Self.bearer)
            #expect(itself.status == 422)

            let retired = try server.request(
                "DELETE", "/api/admin/apps/shop/versions/2?fallback=3", headers: Self.bearer)
            #expect(retired.status == 200, "\(retired.text)")
            let group = retired.json["sessions"]?["groups"]?.array?.first
            #expect(group?["outcome"] == "restarts" && group?["to"] == 3 && group?["sessions"] == 1)
            let restarted = try server.get("/api/sessions/\(session)")
            #expect(restarted.status == 200)
            #expect(restarted.json["app"]?["version"] == 3)
            #expect(restarted.json["visible"]?["screen"]?["title"] == "Shop", "it starts over at the first screen")
            let history = try server.get("/api/sessions/\(session)/history")
            let last = history.json["entries"]?.array?.last
            #expect(last?["source"] == "migration")
            #expect(last?["request"]?["migration"]?["restart"]?.stringValue?.contains("retired") == true)
            #expect(try server.request("DELETE", "/api/admin/apps/shop/versions/2", headers: Self.bearer).status == 404)
            #expect(try Self.publish(server, Self.v2, as: 2).status == 409, "a retired number is not used again")
            let overview = try server.get("/api/admin/apps", headers: Self.bearer)
            let shop = overview.json["apps"]?.array?.first { $0["name"] == "shop" }
            #expect(shop?["retired"]?.array?.first?["fallback"] == 3)
        }
    }

    @Test func everyNodeOfTheStoreServesWhatOneNodePublished() throws {
        let archive = MemorySessionArchive(nodes: .several)
        let adjust: (inout ServerConfiguration) -> Void = {
            $0.archive = archive
            $0.adminToken = AdminEndpointTests.token
        }
        try withServer(adjust) { first in
            try withServer(adjust) { second in
                #expect(try Self.publish(first, Self.v1, as: 1).status == 201)
                #expect(
                    try second.post("/api/sessions", #"{"app":"shop"}"#).json["code"] == "unknownApp", "before it looks"
                )
                second.api.followPublishedApps()
                let session = try Self.newShopSession(second)
                #expect(session.version == 1)
                #expect(
                    try first.post("/api/sessions/\(session.id)/transitions", VersionedShop.push("product", "tea"))
                        .status == 200)

                #expect(try Self.publish(second, Self.v2, as: 2).status == 201)
                #expect(try Self.rollout(second, [(1, 0), (2, 1)]).status == 200)
                first.api.followPublishedApps()
                #expect(try Self.newShopSession(first).version == 2, "the split reached the other node")
                #expect(try first.get("/api/sessions/\(session.id)").json["app"]?["version"] == 1, "pinned at weight 0")

                let stale = try Self.rollout(first, [(2, 1)])
                #expect(stale.status == 200, "an admin change starts from what is stored: \(stale.text)")
                second.api.followPublishedApps()
                #expect(try second.get("/api/sessions/\(session.id)").json["app"]?["version"] == 2, "it migrated")
                let early = try second.request("DELETE", "/api/admin/apps/shop/versions/1", headers: Self.bearer)
                #expect(early.status == 409 && early.json["code"] == "rolloutSettling", "\(early.text)")
                #expect(early.header("Retry-After") != nil, "a node may not have followed the rollout yet")
            }
        }
    }

    @Test func publishedVersionsOutliveARestart() throws {
        let store = try TemporaryStore()
        let adjust: (inout ServerConfiguration) -> Void = { $0.adminToken = AdminEndpointTests.token }
        let id = try store.withServer(adjust) { server, _ in
            #expect(try Self.publish(server, Self.v1, as: 1).status == 201)
            return try Self.newShopSession(server).id
        }
        try store.withServer(adjust) { server, _ in
            server.api.followPublishedApps()  // what NavigationServer.start() does first
            #expect(try server.get("/api/sessions/\(id)").json["app"]?["version"] == 1)
            let overview = try server.get("/api/admin/apps", headers: Self.bearer)
            #expect(overview.json["generation"] == 1)
        }
    }

    @Test func anAdminChangeCanRequireTheGenerationItWasDecidedOn() throws {
        try withServer({ $0.adminToken = AdminEndpointTests.token }) { server in
            _ = try Self.publish(server, Self.v1, as: 1)
            let read = try server.get("/api/admin/apps", headers: Self.bearer)
            #expect(read.header("ETag") == "\"1\"")
            #expect(try Self.publish(server, Self.v2, as: 2).status == 201)
            let stale = try server.request(
                "PUT", "/api/admin/apps/shop/rollout", body: #"{"shares":[{"version":2,"weight":1}]}"#,
                headers: Self.bearer + [("If-Match", "\"1\"")])
            #expect(stale.status == 412 && stale.json["code"] == "staleGeneration", "\(stale.text)")
            #expect(stale.header("ETag") == "\"2\"")
            let fresh = try server.request(
                "PUT", "/api/admin/apps/shop/rollout", body: #"{"shares":[{"version":2,"weight":1}]}"#,
                headers: Self.bearer + [("If-Match", "\"2\"")])
            #expect(fresh.status == 200, "\(fresh.text)")
            let garbled = try server.request(
                "DELETE", "/api/admin/apps/shop/rollout", headers: Self.bearer + [("If-Match", "W/\"2\"")])
            #expect(garbled.status == 400)
        }
    }

    @Test func aRolloutListsEachVersionOnceAndCanBeHandedBack() throws {
        try withServer({ $0.adminToken = AdminEndpointTests.token }) { server in
            _ = try Self.publish(server, Self.v1, as: 1)
            _ = try Self.publish(server, Self.v2, as: 2)
            let twice = try Self.rollout(server, [(2, 1), (2, 0)])
            #expect(twice.status == 422 && twice.json["code"] == "invalidRelease", "\(twice.text)")
            #expect(try Self.rollout(server, [(1, 1)]).status == 200)
            #expect(try Self.newShopSession(server).version == 1)
            let handedBack = try server.request("DELETE", "/api/admin/apps/shop/rollout", headers: Self.bearer)
            #expect(handedBack.status == 200, "\(handedBack.text)")
            #expect(try Self.newShopSession(server).version == 2, "without a rollout the latest version takes them")
            let none = try server.request("DELETE", "/api/admin/apps/shop/rollout", headers: Self.bearer)
            #expect(none.status == 404)
            let query = try server.get("/api/admin/apps?verbose=1", headers: Self.bearer)
            #expect(query.status == 400 && query.json["code"] == "unknownParameter")
        }
    }

    @Test func aRetiredVersionsFallbackChainEndsOnAServedVersion() throws {
        let v3 = NavigationApp(name: "shop", version: 3, root: { ShopV2() })
        let apps = try ServedApps(
            [VersionedShop.v2, v3],
            fallbacks: [AppVersion(name: "shop", version: 1): 2, AppVersion(name: "shop", version: 0): 1])
        guard case .restart(let app, _) = apps.destination(of: AppVersion(name: "shop", version: 0)) else {
            Issue.record("version 0's sessions start over")
            return
        }
        #expect(app.version == 2, "0 → 1 (retired) → 2")
        let looping = try ServedApps(
            [v3], fallbacks: [AppVersion(name: "shop", version: 1): 2, AppVersion(name: "shop", version: 2): 1])
        guard case .gone = looping.destination(of: AppVersion(name: "shop", version: 1)) else {
            Issue.record("a chain that loops reaches no served version")
            return
        }
    }

    /// A change of the served apps takes their sessions out of memory; a request that was waiting for one then runs
    /// on the session read back, never answering 503 `sessionReloading` for it.
    @Test func requestsWaitingForASessionThatLeavesMemoryRunOnItReadBack() throws {
        let store = try TemporaryStore()
        try store.withServer({ $0.apps = [VersionedShop.v1] }) { server, _ in
            let id = try #require(try server.post("/api/sessions", nil).json["session"]?.stringValue)
            let done = Atomic<Bool>(false)
            let statuses = Mutex<[Int: Int]>([:])
            let clients = (0..<4).map { index in
                Thread {
                    for round in 0..<50 {
                        let reply =
                            index % 2 == 0
                            ? (try? server.post("/api/sessions/\(id)/transitions", VersionedShop.push("basket")))
                            : (try? server.get("/api/sessions/\(id)"))
                        statuses.withLock { $0[reply?.status ?? 0, default: 0] += 1 }
                        if index % 2 == 0, round % 2 == 0 {
                            _ = try? server.post("/api/sessions/\(id)/transitions", #"{"steps":[{"action":"pop"}]}"#)
                        }
                    }
                }
            }
            let evictions = Thread {
                while !done.load(ordering: .relaxed) {  // an admin change every few milliseconds
                    let served = server.api.sessions.servedApps.apps
                    server.api.sessions.serve(served, changing: ["shop"])
                    Thread.sleep(forTimeInterval: 0.005)
                }
            }
            evictions.start()
            for client in clients { client.start() }
            while clients.contains(where: { !$0.isFinished }) { Thread.sleep(forTimeInterval: 0.01) }
            done.store(true, ordering: .relaxed)
            let counted = statuses.withLock { $0 }
            #expect(counted.keys.allSatisfy { $0 == 200 }, "\(counted)")
        }
    }

    @Test func aReloadThatDropsAVersionTheRolloutNamesIsRefused() throws {
        try withServer({
            $0.apps = [VersionedShop.v1, VersionedShop.v2]
            $0.rollouts = [
                AppRollout(app: "shop", shares: [.init(version: 1, weight: 1), .init(version: 2, weight: 0)])
            ]
        }) { server in
            guard case .refused(let lines) = server.api.reload(apps: [VersionedShop.v2], checking: ["shop"]) else {
                Issue.record("a reload that leaves the rollout without its version is refused")
                return
            }
            #expect(lines.first?.contains("shop=1:1,2:0") == true, "\(lines)")
            let created = try Self.newShopSession(server)
            #expect(created.version == 1, "the rollout is as it was")
        }
    }

    @Test func removingARolloutCountsAsAChangeOfWhereNewSessionsGo() {
        var published = PublishedApps()
        published.setRollout([.init(version: 2, weight: 1)], of: "shop", at: nil)
        #expect(published.rolloutChanges?["shop"] == nil, "written down as it was: it moved no session")
        published.setRollout(nil, of: "shop", at: 100)
        #expect(published.rollout(of: "shop") == nil)
        #expect(published.rolloutChanges?["shop"] == 100, "a retire waits for the nodes to follow a removal too")
    }
}
