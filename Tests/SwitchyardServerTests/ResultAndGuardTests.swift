import Switchyard
import Testing

/// Results back to the caller and route guards over HTTP, on the demo: Home's "Pick a favourite" sheet gives a todo
/// id back; the Settings testbed's admin screen is guarded by the admin switch on Profile.
@Suite("Results and guards over HTTP")
struct ResultAndGuardTests {
    static let openPicker = #"{"coordinator":"HomeCoordinator","steps":[{"action":"route","route":"pickFavourite"}]}"#

    static func finish(_ result: String) -> String {
        #"{"coordinator":"HomeCoordinator","steps":[{"action":"finish","result":\#(result)}]}"#
    }

    @Test func aPickedTodoComesBackToHomeInTheChangeThatClosesTheSheet() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            let sheet = try session.must(session.transition(Self.openPicker))
            #expect(sheet.path == ["authenticated", "home", "favourites", "pickFavourite"])
            let rows = sheet.json["visible"]?["screen"]?["content"]?.array?.first { $0["type"] == "list" }?["rows"]
            let row = try #require(rows?.array?.first { $0["id"] == "buy-milk" })
            #expect(row["action"]?["steps"]?.array?.first?["action"] == "finish")

            // The row's own action, as the page sends it.
            let action = try #require(row["action"])
            let body = JSONValue.object([
                "coordinator": action["coordinator"] ?? .null, "steps": action["steps"] ?? .null,
            ])
            let done = try session.must(session.transition(String(decoding: body.serialized(), as: UTF8.self)))
            #expect(done.version == sheet.version! + 1, "one change: the sheet closes and Home marks the todo")
            #expect(done.path == ["authenticated", "home", "favourites"])
            let favourites = done.json["visible"]?["screen"]?["content"]?.array?.first { $0["type"] == "list" }
            #expect(favourites?["rows"]?.array?.compactMap { $0["id"]?.stringValue } == ["hello-world", "buy-milk"])
        }
    }

    @Test func aWrongResultIsA422AndTheSheetStays() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            let sheet = try session.must(session.transition(Self.openPicker))
            for (result, code) in [("42", "invalidResult"), (#""no-such-todo""#, "unknownTodo")] {
                let reply = try session.transition(Self.finish(result))
                #expect(reply.status == 422, "\(result): \(reply.text)")
                #expect(reply.json["code"]?.stringValue == code)
            }
            let missing = try session.transition(#"{"coordinator":"HomeCoordinator","steps":[{"action":"finish"}]}"#)
            #expect(missing.status == 400)
            #expect(missing.json["code"]?.stringValue == "missingMember")
            let state = try session.state()
            #expect(state.version == sheet.version)
            #expect(state.path.last == "pickFavourite")
            // Swiping the sheet down is a cancelled pick: it closes and nothing is marked.
            let cancelled = try session.must(session.transition(#"{"action":"dismissModal"}"#))
            #expect(cancelled.text.contains(#""id":"buy-milk","title":"Buy milk","icon":"star.fill""#) == false)
        }
    }

    @Test func aRetriedRedirectThatChangesNothingMakesNoVersion() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#))
            let push = #"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"admin"}]}"#
            let first = try session.transition(push)
            #expect(first.json["code"] == "redirected")
            let version = try #require(first.json["currentVersion"]?.int)
            for _ in 0..<5 {
                let again = try session.transition(push)
                #expect(again.status == 409)
                #expect(again.json["code"] == "redirected", "the answer still says where the session is")
                #expect(again.json["currentVersion"]?.int == version)
            }
            #expect(try session.state().version == version, "no identical versions")
            #expect(try session.history().json["entries"]?.array?.count == version)
        }
    }

    @Test func theAdminScreenRedirectsToProfileAndOpensOnceTheSwitchIsOn() throws {
        let store = try TemporaryStore()
        let (id, redirectedVersion) = try store.withServer { server, _ in
            let session = try server.createSession()
            try session.logIn()
            try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#))
            let push =
                #"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"green"},"#
                + #"{"action":"push","route":"admin"}]}"#
            let redirected = try session.transition(push)
            #expect(redirected.status == 409, "\(redirected.text)")
            #expect(redirected.json["code"]?.stringValue == "redirected")
            // The problem carries the new state: the Profile tab, with the admin screen pending (green was rolled back).
            let state = try #require(redirected.json["state"])
            #expect(state["visible"]?["path"]?.strings == ["authenticated", "profile"])
            #expect(state["pendingRoute"]?["route"] == "admin")
            #expect(state["pendingRoute"]?["owner"]?.strings == ["authenticated", "settings"])
            #expect(redirected.json["currentVersion"]?.int == state["version"]?.int)
            #expect(try session.state().path == ["authenticated", "profile"])
            // Its history entry says it is a redirect, and what waits (kept by the store across the restart below).
            let entry = try #require(try session.history().json["entries"]?.array?.last)
            #expect(entry["redirected"]?["route"] == "admin")
            #expect(entry["redirected"]?["type"] == "SettingsCoordinator")
            return (session.id, try #require(state["version"]?.int))
        }
        // A restart in between: the pending route was stored with the session.
        try store.withServer { server, _ in
            let session = DemoSession(server: server, id: id, created: try server.get("/api/sessions/\(id)"))
            #expect(session.created.json["pendingRoute"]?["route"] == "admin")
            let on = try session.must(session.event(#"{"name":"setAdminMode","fields":{"adminMode":"true"}}"#))
            // Two changes: the switch, then the admin screen in a change of its own; the answer shows the last.
            #expect(on.version == redirectedVersion + 2)
            let state = try session.state()
            #expect(state.version == redirectedVersion + 2)
            #expect(state.path == ["authenticated", "settings", "settings", "admin"])
            #expect(state.json["pendingRoute"] == nil)
            let history = try #require(try session.history().json["entries"]?.array)
            let last = try #require(history.last)
            #expect(history.dropLast().last?["source"] == "event")
            #expect(last["source"] == "guard")
            #expect(last["request"]?["pendingRoute"] == "entered")
            #expect(last["redirected"] == nil, "entering the route is no redirect")
            let redirect = try #require(history.first { $0["version"]?.int == redirectedVersion })
            #expect(redirect["redirected"]?["route"] == "admin", "read back from the store after the restart")
            // With the switch on, the guard lets the route in directly.
            try session.must(session.transition(#"{"coordinator":"SettingsCoordinator","steps":[{"action":"pop"}]}"#))
            let direct = try session.must(
                session.transition(
                    #"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"admin"}]}"#))
            #expect(direct.path.last == "admin")
        }
    }

    @Test func theCatalogShowsGuardsAndResultTypes() throws {
        try withServer { server in
            let catalog = try server.get("/api/catalog").json
            let types = try #require(catalog["coordinators"]?.array)
            func route(_ type: String, _ name: String) -> JSONValue? {
                types.first { $0["type"] == .string(type) }?["routes"]?.array?.first { $0["name"] == .string(name) }
            }
            #expect(route("SettingsCoordinator", "admin")?["guarded"] == true)
            #expect(route("SettingsCoordinator", "green")?["guarded"] == false)
            #expect(route("HomeCoordinator", "pickFavourite")?["returns"] == "String")
            #expect(route("SettingsCoordinator", "green")?["returns"] == nil)
        }
    }
}
