import Switchyard
import Testing

/// Reverse routing: `GET /api/sessions/{id}/link` names the app's deep link that shows what is on screen, and only
/// one that would show it again.
@Suite("The link to what is on screen")
struct VisibleLinkTests {
    @Test func eachScreenALinkLeadsToHasThatLinkAndOthersHaveNone() throws {
        try withServer { server in
            let session = try server.createSession()
            func link() throws -> JSONValue? {
                let reply = try server.get(session.base + "/link")
                try #require(reply.status == 200, "\(reply.text)")
                #expect(reply.json["session"]?.stringValue == session.id)
                #expect(reply.json["version"] == (try session.state().json["version"]))
                return reply.json["link"]
            }
            #expect(try link() == .null, "the welcome screen: no link opens it")
            try session.logIn()
            #expect(try link() == "jumper://io.idevs/home")

            try session.must(session.deepLink("jumper://io.idevs/todo/buy-milk"))
            #expect(try link() == "jumper://io.idevs/todo/buy-milk", "the input on screen bound to the pattern")
            try session.must(session.transition(#"{"action":"dismissModal"}"#))
            try session.must(session.deepLink("stinsenapp://todo/buy-milk"))
            #expect(
                try link() == "stinsenapp://todo/buy-milk",
                "Jumper's link shows the todo as a sheet, Stinsen's pushes it: the pushed todo is Stinsen's")

            try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#))
            #expect(try link() == "jumper://io.idevs/settings")
            let settings = #"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"green"}]}"#
            try session.must(session.transition(settings))
            #expect(try link() == .null, "the settings link does not push green: a pushed screen has no link")
            try session.must(session.transition(#"{"action":"back"}"#))
            let sheet = #"{"coordinator":"SettingsCoordinator","steps":[{"action":"present","route":"blue"}]}"#
            try session.must(session.transition(sheet))
            #expect(try link() == .null, "nor a sheet over the tab")
            try session.must(session.transition(#"{"action":"dismissModal"}"#))
            #expect(try link() == "jumper://io.idevs/settings")

            let version = try session.state().version
            #expect(try session.history().json["entries"]?.array?.last?["version"]?.int == version)
            #expect(version == 10, "working the link out changed nothing")
        }
    }

    @Test func aSessionsLinkOpensTheSameScreenInAnotherSession() throws {
        try withServer { server in
            let first = try server.createSession()
            try first.logIn()
            try first.must(first.deepLink("https://example.com/todo/write-docs"))
            let link = try #require(server.get(first.base + "/link").json["link"]?.stringValue)
            #expect(link == "stinsenapp://todo/write-docs")

            let second = try server.createSession()
            try second.logIn("grace")
            try second.must(second.transition(#"{"action":"selectTab","route":"settings"}"#))
            try second.must(second.deepLink(link))
            #expect(try second.state().path == first.state().path)
        }
    }

    @Test func anUnknownSessionIsNotFound() throws {
        try withServer { server in
            let reply = try server.get("/api/sessions/nope/link")
            #expect(reply.status == 404)
            #expect(reply.header("Content-Type") == "application/problem+json")
        }
    }
}
