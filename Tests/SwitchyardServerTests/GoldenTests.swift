import Foundation
import Switchyard
import SwitchyardDefinitions
import Testing
import TodoDemo

/// Pins the wire format: a scripted walk through the demo, answered in process, must produce exactly the bytes in
/// `Golden/demo-walk.txt` (state documents, summaries, problems, catalog). Session ids are replaced by `SESSION`.
/// `SWITCHYARD_UPDATE_GOLDEN=1 swift test --filter GoldenTests` rewrites the file after an intended change.
@Suite("Golden wire format")
struct GoldenTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden/demo-walk.txt")

    /// The walk: method, path (`$S` is the session), body, extra headers.
    static let walk: [(String, String, String?, [(String, String)])] = [
        ("POST", "/api/sessions", nil, []),
        ("GET", "/api/sessions/$S", nil, []),
        ("POST", "/api/sessions/$S/events", #"{"name":"completeOnboarding"}"#, []),
        ("POST", "/api/sessions/$S/events", #"{"name":"login","fields":{"username":""}}"#, []),
        (
            "POST", "/api/sessions/$S/transitions",
            #"{"coordinator":"UnauthenticatedCoordinator","steps":[{"action":"respondToAlert","choice":0}]}"#, []
        ),
        ("POST", "/api/sessions/$S/deeplinks", #"{"url":"stinsenapp://todo/buy-milk"}"#, []),
        (
            "POST", "/api/sessions/$S/transitions",
            #"{"coordinator":"UnauthenticatedCoordinator","steps":[{"action":"push","route":"forgotPassword"}]}"#, []
        ),
        ("POST", "/api/sessions/$S/transitions", #"{"action":"back"}"#, []),
        ("POST", "/api/sessions/$S/events", #"{"name":"login","fields":{"username":"ada"}}"#, []),
        ("GET", "/api/sessions/$S", nil, []),
        (
            "POST", "/api/sessions/$S/transitions",
            #"{"coordinator":"AuthenticatedCoordinator","steps":[{"action":"focus","route":"todos"},{"action":"push","route":"todo","input":"hello-world"}]}"#,
            []
        ),
        (
            "POST", "/api/sessions/$S/transitions",
            #"{"coordinator":"TodosCoordinator","steps":[{"action":"route","route":"create"}]}"#, []
        ),
        ("POST", "/api/sessions/$S/events", #"{"name":"create","fields":{"name":"Walk the dog"}}"#, []),
        ("POST", "/api/sessions/$S/events", #"{"name":"toggleFavourite","payload":{"id":"walk-the-dog"}}"#, []),
        ("POST", "/api/sessions/$S/transitions", #"{"action":"selectTab","route":"settings"}"#, []),
        (
            "POST", "/api/sessions/$S/transitions",
            #"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"green"},{"action":"push","route":"yellow"},{"action":"present","route":"blue"}]}"#,
            []
        ),
        ("POST", "/api/sessions/$S/transitions", #"{"action":"dismissModal"}"#, []),
        (
            "POST", "/api/sessions/$S/transitions",
            #"{"coordinator":"SettingsCoordinator","steps":[{"action":"route","route":"terms"}]}"#, []
        ),
        ("POST", "/api/sessions/$S/transitions", #"{"action":"dismissModal"}"#, []),
        (
            "POST", "/api/sessions/$S/transitions",
            #"{"coordinator":"SettingsCoordinator","steps":[{"action":"route","route":"settingsCoordinatorFullscreen"}]}"#,
            []
        ),
        ("POST", "/api/sessions/$S/transitions", #"{"action":"back"}"#, [("Prefer", "return=minimal")]),
        ("POST", "/api/sessions/$S/deeplinks", #"{"url":"jumper://io.idevs/todo/buy-milk"}"#, []),
        ("POST", "/api/sessions/$S/deeplinks", #"{"url":"jumper://io.idevs/todo/nope"}"#, []),
        (
            "POST", "/api/sessions/$S/transitions",
            #"{"coordinator":"TodosCoordinator","steps":[{"action":"popToRoot"},{"action":"pop"}]}"#, []
        ),
        (
            "POST", "/api/sessions/$S/transitions",
            #"{"coordinator":"TodosCoordinator","steps":[{"action":"push","route":"nope"}]}"#, []
        ),
        ("POST", "/api/sessions/$S/transitions", #"{"action":"fly"}"#, []),
        ("POST", "/api/sessions/$S/transitions", #"{"action":"back"}"#, [("If-Match", "\"1\"")]),
        ("POST", "/api/sessions/$S/transitions", #"{"steps":"#, []),
        ("POST", "/api/sessions/$S/events", #"{"name":"nobodyListens"}"#, []),
        ("PUT", "/api/sessions/$S", nil, []),
        ("GET", "/api/sessions/0123456789abcdef0123456789abcdef", nil, []),
        ("GET", "/api/catalog", nil, []),
    ]

    /// The walk's transcript on `server`, its session made with `create` as the body of `POST /api/sessions`.
    static func transcript(_ server: TestServer, create: String? = nil) throws -> String {
        var session = ""
        var text = ""
        for (method, rawPath, body, headers) in walk {
            let path = rawPath.replacingOccurrences(of: "$S", with: session)
            let sent = rawPath == "/api/sessions" ? create ?? body : body
            let reply = try server.handle(method, path, body: sent, headers: headers)
            if session.isEmpty, let id = reply.json["session"]?.stringValue { session = id }
            let shown = session.isEmpty ? reply.text : reply.text.replacingOccurrences(of: session, with: "SESSION")
            text += "### \(method) \(rawPath)\(body.map { " " + $0 } ?? "")\n\(reply.status)\n\(shown)\n"
        }
        return text
    }

    @Test func theDemoWalkMatchesTheGoldenFile() throws {
        let transcript = try withServer { server in try Self.transcript(server) }
        if ProcessInfo.processInfo.environment["SWITCHYARD_UPDATE_GOLDEN"] == "1" {
            try transcript.write(to: Self.file, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOf: Self.file, encoding: .utf8)
        let expected = golden.split(separator: "\n", omittingEmptySubsequences: false)
        let actual = transcript.split(separator: "\n", omittingEmptySubsequences: false)
        let firstDifference =
            zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(expected.count, actual.count)
        #expect(
            transcript == golden,
            "first difference at line \(firstDifference + 1): expected \(expected.dropFirst(firstDifference).first ?? "<end>"), got \(actual.dropFirst(firstDifference).first ?? "<end>")"
        )
    }

    /// The demo written as data (`Examples/Definitions/todo-data.yaml`) answers the walk with the same bytes: every
    /// state document, result and problem (all but the catalog, which lists both apps, and the app each document
    /// names).
    @Test func theDemoAsDataAnswersTheWalkByteForByte() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples/Definitions/todo-data.yaml")
        let twin = try NavigationApp(definition: String(contentsOf: file, encoding: .utf8), format: .yaml)
        let (swift, data) = try withServer({ $0.apps = [TodoDemo.app, twin] }) { server in
            (
                try Self.transcript(server, create: #"{"app":"todo"}"#),
                try Self.transcript(server, create: #"{"app":"todo-data"}"#)
            )
        }
        let catalog = "### GET /api/catalog\n"
        let expected = swift.components(separatedBy: catalog)[0].split(
            separator: "\n", omittingEmptySubsequences: false)
        let actual = data.replacingOccurrences(of: #""app":{"name":"todo-data","#, with: #""app":{"name":"todo","#)
            .components(separatedBy: catalog)[0].split(separator: "\n", omittingEmptySubsequences: false)
        #expect(expected.count == actual.count && expected.count > 60)
        for (line, (want, got)) in zip(expected, actual).enumerated() where want != got {
            Issue.record("line \(line + 1) differs: the demo \(want.prefix(300))…, the twin \(got.prefix(300))…")
            break
        }
    }
}
