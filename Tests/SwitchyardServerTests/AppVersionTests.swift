import Switchyard
import SwitchyardServer
import SwitchyardSessions
import Testing

/// A release of a new app version with sessions stored by the old one: each session migrates when next read back,
/// stays pinned on its version when it cannot or is told to, and is gone (410, saying why) only when its version is.
@Suite("App versions: migrated, pinned and split sessions")
struct AppVersionTests {
    /// Sessions stored by version 1: one on `detail` (item 7), one on `legacy` above `detail` (item 8), one on the list.
    private func storeVersionOneSessions(
        _ store: TemporaryStore
    ) throws -> (onDetail: String, onLegacy: String, home: String) {
        try store.withServer({ $0.apps = [VersionedShop.v1] }) { server, _ in
            func make(_ pushes: [String]) throws -> String {
                let id = try #require(try server.post("/api/sessions", nil).json["session"]?.stringValue)
                for push in pushes { #expect(try server.post("/api/sessions/\(id)/transitions", push).status == 200) }
                return id
            }
            return (
                try make([VersionedShop.push("detail", "7")]),
                try make([VersionedShop.push("detail", "8"), VersionedShop.push("legacy")]), try make([])
            )
        }
    }

    @Test func aReleaseMigratesEachSessionWhereItsMigrationSays() throws {
        let store = try TemporaryStore()
        let ids = try storeVersionOneSessions(store)
        try store.withServer({ $0.apps = [VersionedShop.v1, VersionedShop.v2] }) { server, _ in
            let detail = try server.get("/api/sessions/\(ids.onDetail)")
            #expect(detail.status == 200)
            #expect(detail.json["app"] == ["name": "shop", "version": 2])
            #expect(detail.path == ["home", "item"])
            #expect(detail.json["visible"]?["screen"]?["title"] == "Item 7")
            #expect(detail.version == 2, "the migration is a new version of the session")
            let legacy = try server.get("/api/sessions/\(ids.onLegacy)")
            #expect(legacy.path == ["home", "item"], "legacy is gone: the user lands on what was beneath it")
            #expect(legacy.json["visible"]?["screen"]?["title"] == "Item 8")
            #expect(try server.get("/api/sessions/\(ids.home)").json["app"]?["version"] == 2)

            let history = try server.get("/api/sessions/\(ids.onDetail)/history").json["entries"]?.array ?? []
            #expect(history.last?["source"] == "migration")
            #expect(history.last?["request"]?["migration"]?["from"] == ["name": "shop", "version": 1])
            #expect(history.first?["source"] == "api", "the entries of version 1 stay in the history")
            let times = history.compactMap { $0["time"]?.stringValue }
            #expect(
                times.count == 2 && times[1] > times[0],
                "the migration's entry has the time it happened, not the previous entry's: \(times)")
            let before = try server.get("/api/sessions/\(ids.onDetail)/versions/1")
            #expect(before.status == 200, "an earlier version still reads back, rendered by the version that ran it")
            #expect(before.json["app"]?["version"] == 1)

            // The session works on version 2, and its time travel migrates what it brings back.
            #expect(
                try server.post("/api/sessions/\(ids.home)/transitions", VersionedShop.push("item", "9")).status == 200)
            let restored = try server.post("/api/sessions/\(ids.onDetail)/restore", #"{"version":1}"#)
            #expect(restored.status == 200)
            #expect(restored.json["app"]?["version"] == 2)
            #expect(restored.path == ["home", "item"])
            // New sessions run version 2.
            #expect(try server.post("/api/sessions", nil).json["app"]?["version"] == 2)
            let metrics = try server.get("/metrics").text
            #expect(
                metrics.contains(#"switchyard_session_migrations_total{app="shop",version="1",outcome="migrated"} 3"#))
        }
        // Stored as version 2: the next start reads them back as they are, without migrating again.
        try store.withServer({ $0.apps = [VersionedShop.v2] }) { server, _ throws in
            #expect(try server.get("/api/sessions/\(ids.onDetail)").version == 3)
            #expect(try server.get("/api/sessions/\(ids.onLegacy)").version == 3)
            // Version 1 is retired: its versions read back as a restore brings them back, migrated.
            let past = try server.get("/api/sessions/\(ids.onDetail)/versions/1")
            #expect(past.status == 200, "\(past.text.prefix(300))")
            #expect(past.json["app"]?["version"] == 2)
            #expect(past.path == ["home", "item"])
        }
    }

    @Test func aPinnedVersionKeepsItsSessionsWhileTheNewOneTakesNewSessions() throws {
        let store = try TemporaryStore()
        let ids = try storeVersionOneSessions(store)
        let pin = try AppRollout.parse("shop=1:0,2:1").get()
        try store.withServer({
            $0.apps = [VersionedShop.v1, VersionedShop.v2]
            $0.rollouts = [pin]
        }) { server, _ in
            let pinned = try server.get("/api/sessions/\(ids.onDetail)")
            #expect(pinned.json["app"] == ["name": "shop", "version": 1])
            #expect(pinned.path == ["home", "detail"])
            let pushed = try server.post("/api/sessions/\(ids.home)/transitions", VersionedShop.push("detail", "3"))
            #expect(pushed.status == 200, "version 1's routes work for its sessions")
            #expect(try server.post("/api/sessions", nil).json["app"]?["version"] == 2)
            #expect(try server.get("/api/sessions/\(ids.home)/catalog").json["version"] == 1)
            #expect(try server.get("/api/catalog?app=shop").json["version"] == 2)
            // Two versions side by side, compared by their metrics.
            let refused = try server.post("/api/sessions/\(ids.home)/transitions", VersionedShop.push("item", "3"))
            #expect(refused.status == 400, "version 1 has no route 'item'")
            let metrics = try server.get("/metrics").text
            #expect(metrics.contains(#"switchyard_app_sessions{app="shop",version="1"} 2"#))
            #expect(metrics.contains(#"switchyard_app_sessions{app="shop",version="2"} 1"#))
            #expect(metrics.contains(#"switchyard_app_changes_total{app="shop",version="1",outcome="accepted"} 1"#))
            #expect(metrics.contains(#"switchyard_app_changes_total{app="shop",version="1",outcome="refused"} 1"#))
        }
    }

    @Test func aSessionItsMigrationCannotTakeStaysOnItsVersionOrIsGoneSayingWhy() throws {
        let store = try TemporaryStore()
        let ids = try storeVersionOneSessions(store)
        try store.withServer({ $0.apps = [VersionedShop.v1, VersionedShop.v2Forgetful] }) { server, _ in
            let stuck = try server.get("/api/sessions/\(ids.onLegacy)")
            #expect(stuck.status == 200, "not lost: it stays on version 1, which is served")
            #expect(stuck.json["app"]?["version"] == 1)
            #expect(try server.get("/api/sessions/\(ids.onDetail)").json["app"]?["version"] == 2)
            let metrics = try server.get("/metrics").text
            #expect(
                metrics.contains(#"switchyard_session_migrations_total{app="shop",version="1",outcome="pinned"} 1"#))
        }
        try store.withServer({ $0.apps = [VersionedShop.v2Forgetful] }) { server, _ in
            let gone = try server.get("/api/sessions/\(ids.onLegacy)")
            #expect(gone.status == 410)
            #expect(gone.json["code"] == "sessionIncompatible")
            #expect(gone.json["detail"]?.stringValue?.contains("legacy") == true, "\(gone.text)")
        }
    }

    @Test func aSplitGivesNewSessionsEitherVersionAndEachKeepsItsOwn() throws {
        let store = try TemporaryStore()
        let split = try AppRollout.parse("shop=1:50,2:50").get()
        let configure: @Sendable (inout ServerConfiguration) -> Void = {
            $0.apps = [VersionedShop.v1, VersionedShop.v2]
            $0.rollouts = [split]
        }
        let versions = try store.withServer(configure) { server, _ in
            try (0..<40).map { _ in
                let created = try server.post("/api/sessions", nil)
                return (created.json["session"]?.stringValue ?? "", created.json["app"]?["version"]?.int ?? 0)
            }
        }
        #expect(Set(versions.map(\.1)) == [1, 2], "both versions take new sessions")
        try store.withServer(configure) { server, _ throws in
            for (id, version) in versions {
                #expect(try server.get("/api/sessions/\(id)").json["app"]?["version"]?.int == version)
            }
        }
    }

    @Test func manyRequestsForMigratingSessionsMigrateEachOnce() throws {
        let store = try TemporaryStore()
        let ids = try store.withServer({ $0.apps = [VersionedShop.v1] }) { server, _ in
            try (0..<12).map { _ in
                let id = try #require(try server.post("/api/sessions", nil).json["session"]?.stringValue)
                _ = try server.post("/api/sessions/\(id)/transitions", VersionedShop.push("detail", "1"))
                return id
            }
        }
        try store.withServer({ $0.apps = [VersionedShop.v1, VersionedShop.v2] }) { server, _ in
            onThreads(6) { _ in
                for id in ids {
                    let reply = try? server.get("/api/sessions/\(id)")
                    #expect(reply?.status == 200)
                    #expect(reply?.json["app"]?["version"] == 2)
                }
            }
            for id in ids {
                let history = try server.get("/api/sessions/\(id)/history").json["entries"]?.array ?? []
                #expect(history.filter { $0["source"] == "migration" }.count == 1)
                #expect(try server.get("/api/sessions/\(id)").version == 2)
            }
        }
    }

    @Test func aRolloutNamingAVersionNotServedIsRefusedAtStart() throws {
        #expect(throws: RolloutError.self) {
            var configuration = ServerConfiguration(apps: [VersionedShop.v2])
            configuration.rollouts = [try AppRollout.parse("shop=1:10,2:90").get()]
            _ = try NavigationServer(configuration: configuration)
        }
        #expect(throws: RolloutError.self) { try AppRollout.parse("shop=2:0").get() }
        #expect(throws: RolloutError.self) { try AppRollout.parse("shop=x").get() }
        #expect(try AppRollout.parse("shop=1:90,2:10").get().description == "shop=1:90,2:10")
    }
}

extension AppVersionTests {
    @Test func theDocumentedConfigurationServesTheSplit() throws {
        let documented = try documentedVersionConfiguration()
        #expect(documented.rollouts.first?.description == "shop=1:90,2:10")
        try withServer({
            $0.apps = documented.apps
            $0.rollouts = documented.rollouts
        }) { server in
            let versions = try (0..<30).map { _ in try server.post("/api/sessions", nil).json["app"]?["version"]?.int }
            #expect(versions.allSatisfy { $0 == 1 || $0 == 2 })
        }
    }
}

extension AppVersionTests {
    @Test func weightsAreBounded() {
        #expect(throws: RolloutError.self) { try AppRollout.parse("shop=1:9223372036854775807,2:1").get() }
        #expect(throws: RolloutError.self) {
            try ServedApps(
                [VersionedShop.v1, VersionedShop.v2],
                rollouts: [AppRollout(app: "shop", shares: [AppRollout.Share(version: 1, weight: 0)])])
        }
    }

    @Test func aMigrationIsNotAUse() throws {
        // A session idle past its TTL is not brought back by a release that migrates the others.
        let store = try TemporaryStore()
        let clock = Locked(1_000_000.0)
        let idle = try store.withServer({
            $0.apps = [VersionedShop.v1]
            $0.now = { clock.value }
        }) { server, _ in
            let id = try #require(try server.post("/api/sessions", nil).json["session"]?.stringValue)
            _ = try server.post("/api/sessions/\(id)/transitions", VersionedShop.push("detail", "1"))
            return id
        }
        clock.mutate { $0 += 31 * 60 }
        try store.withServer({
            $0.apps = [VersionedShop.v1, VersionedShop.v2]
            $0.now = { clock.value }
            $0.adminToken = AdminEndpointTests.token
        }) { server, _ in
            let applied = try server.post("/api/admin/migrations", nil, headers: AdminEndpointTests.bearer)
            #expect(applied.json["groups"] == [], "an expired session is not migrated")
            #expect(try server.get("/api/sessions/\(idle)").status == 404)
        }
    }
}
