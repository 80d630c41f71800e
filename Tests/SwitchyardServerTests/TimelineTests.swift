import Switchyard
import Testing

/// What the page's timeline reads: the JSON Patch each version made (from the store), and the refusals the session
/// got, which are not versions.
@Suite("The timeline: each version's patch, and recent refusals")
struct TimelineTests {
    @Test func eachVersionsPatchTurnsTheVersionBeforeIntoIt() throws {
        let store = try TemporaryStore()
        try store.withServer { server, _ in
            let session = try server.createSession()
            try session.logIn()
            try session.must(session.deepLink("stinsenapp://todo/buy-milk"))
            for version in 1...3 {
                let reply = try server.get(session.base + "/versions/\(version)/patch")
                try #require(reply.status == 200, "\(reply.text)")
                #expect(reply.json["version"]?.int == version)
                let before = try server.get(session.base + "/versions/\(version - 1)").json
                let after = try server.get(session.base + "/versions/\(version)").json
                let patch = try #require(reply.json["patch"])
                #expect(try JSONPatch.apply(patch, to: before) == after, "version \(version)")
            }
            let creation = try server.get(session.base + "/versions/0/patch").json["patch"]
            #expect(creation?.array?.count == 1)
            #expect(creation?.array?.first?["op"] == "add")
            #expect(creation?.array?.first?["value"] == (try server.get(session.base + "/versions/0").json))

            let future = try server.get(session.base + "/versions/9/patch")
            #expect(future.status == 404)
            #expect(future.json["code"] == "unknownVersion")
            #expect(try server.get(session.base + "/versions/x/patch").status == 400)
        }
    }

    @Test func refusalsAreListedWithTheirProblemButNotTheirState() throws {
        try withServer { server in
            let session = try server.createSession()
            let empty = try server.get(session.base + "/refusals")
            #expect(empty.status == 200)
            #expect(empty.json["refusals"]?.array == [])
            try session.logIn()
            let pop = #"{"coordinator":"TodosCoordinator","steps":[{"action":"popToRoot"},{"action":"pop"}]}"#
            #expect(try session.transition(pop).status == 409)
            #expect(try session.transition(#"{"action":"back","expectedVersion":0}"#).status == 412)
            #expect(try session.transition(#"{"steps":[{"action":"fly"}]}"#).status == 400)
            try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#))
            let admin = #"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"admin"}]}"#
            #expect(try session.transition(admin).json["code"] == "redirected", "a redirect is a version, not listed")

            let reply = try server.get(session.base + "/refusals")
            let refusals = try #require(reply.json["refusals"]?.array)
            #expect(
                refusals.map { $0["problem"]?["code"]?.stringValue } == [
                    "cannotPopRoot", "staleVersion", "unknownAction",
                ])
            #expect(refusals.map { $0["status"]?.int } == [409, 412, 400])
            #expect(refusals[0]["source"] == "api")
            #expect(refusals[0]["request"] == (try JSONValue(parsing: Array(pop.utf8))))
            #expect(refusals[0]["version"] == 2, "the version the session stayed at")
            #expect(refusals[1]["problem"]?["state"] == nil, "the state a stale version's problem carries is left out")
            #expect(refusals[2]["source"] == nil, "a request that could not be read has no source")
            #expect(reply.json["version"] == (try session.state().json["version"]))

            for _ in 0..<12 { _ = try session.transition(pop) }
            #expect(try server.get(session.base + "/refusals").json["refusals"]?.array?.count == 10, "the latest 10")
        }
    }
}
