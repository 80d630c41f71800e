import Switchyard
import Testing

/// `GET /api/sessions/{id}/history`: committed changes, newest last, bounded.
@Suite("History")
struct HistoryTests {
    @Test func entriesRecordVersionTimeSourceRequestAndVisiblePath() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.must(session.event(#"{"name":"completeOnboarding"}"#))
            try session.must(session.event(#"{"name":"login","fields":{"username":"ada"}}"#))
            try session.must(session.transition(#"{"action":"selectTab","route":"todos"}"#))
            try session.must(
                session.transition(
                    #"{"coordinator":"TodosCoordinator","steps":[{"action":"push","route":"todo","input":"buy-milk"}]}"#
                ))
            try session.must(session.deepLink("jumper://io.idevs/settings"))
            _ = try session.transition(#"{"action":"back"}"#)  // refused at the settings root: not recorded
            let state = try session.state()

            let reply = try session.history()
            #expect(reply.status == 200)
            #expect(reply.header("Cache-Control") == "no-store")
            #expect(reply.json["session"]?.stringValue == session.id)
            #expect(reply.json["version"]?.int == state.version)
            let entries = try #require(reply.json["entries"]?.array)
            let changes = entries.filter { $0["source"] != "session" }
            #expect(
                changes.compactMap { $0["source"]?.stringValue } == ["event", "event", "gesture", "api", "deeplink"])

            // Newest last, versions increasing, the last one is the current version.
            let versions = entries.compactMap { $0["version"]?.int }
            #expect(versions.count == entries.count)
            #expect(versions == versions.sorted())
            #expect(Set(versions).count == versions.count)
            #expect(versions.last == state.version)

            for entry in entries {
                let time = entry["time"]?.stringValue ?? ""
                #expect(time.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil, "time \(time)")
                #expect(entry["visiblePath"]?.strings != nil)
            }
            #expect(changes[0]["request"]?["name"] == "completeOnboarding")
            #expect(changes[1]["visiblePath"]?.strings == ["authenticated", "home", "favourites"])
            #expect(changes[2]["request"]?["action"] == "selectTab")
            #expect(changes[3]["request"]?["steps"]?[0]?["input"] == "buy-milk")
            #expect(changes[3]["visiblePath"]?.strings == ["authenticated", "todos", "list", "todo"])
            #expect(changes[4]["request"]?["url"] == "jumper://io.idevs/settings")
            #expect(entries.last?["visiblePath"]?.strings == state.path)
        }
    }

    /// A change lists the coordinators it started and finished, in memory and in the durable store alike.
    @Test func anEntryListsTheCoordinatorsItsChangeStartedAndFinished() throws {
        func check(_ server: TestServer) throws {
            let session = try server.createSession()
            try session.must(session.event(#"{"name":"completeOnboarding"}"#))
            try session.must(session.event(#"{"name":"login","fields":{"username":"ada"}}"#))
            try session.must(session.transition(#"{"action":"selectTab","route":"todos"}"#))
            func list(_ value: JSONValue?) -> [JSONValue] {
                if case .array(let items)? = value { return items }
                return []
            }
            let entries = list(try session.history().json["entries"])
            try #require(entries.count == 3)
            let login = entries[1]
            let started = list(login["started"]).compactMap { $0["type"]?.stringValue }
            let finished = list(login["finished"]).compactMap { $0["type"]?.stringValue }
            #expect(started.first == "AuthenticatedCoordinator", "\(started)")
            #expect(started.contains("TodosCoordinator"))
            #expect(finished == ["UnauthenticatedCoordinator"], "\(finished)")
            #expect(login["started"]?[0]?["id"]?.stringValue?.hasPrefix("n") == true)
            let onboarded = list(entries[0]["started"]).compactMap { $0["type"]?.stringValue }
            #expect(onboarded == ["UnauthenticatedCoordinator"])
            #expect(entries[2]["started"] == nil && entries[2]["finished"] == nil, "a tab tap starts nothing")
        }
        try withServer { server in try check(server) }
        try TemporaryStore().withServer { server, _ in try check(server) }
    }

    @Test func theHistoryIsBounded() throws {
        try withServer({ $0.historyLimit = 3 }) { server in
            let session = try server.createSession()
            try session.logIn()
            try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#))
            for _ in 0..<4 {
                try session.must(
                    session.transition(
                        #"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"green"}]}"#))
            }
            let state = try session.state()
            let entries = try #require(try session.history().json["entries"]?.array)
            #expect(entries.count == 3)
            let versions = entries.compactMap { $0["version"]?.int }
            #expect(versions.last == state.version, "the oldest entries are dropped, not the newest")
            #expect(entries.allSatisfy { $0["source"] == "api" })
            #expect(entries.last?["visiblePath"]?.strings?.suffix(2) == ["green", "green"])
        }
    }
}
