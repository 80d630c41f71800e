import MicroHTTP
import Switchyard
import SwitchyardSessions
import Testing

@testable import SwitchyardServer

/// `Prefer: return=minimal` answers a change with the short document; the change itself is the same.
@Suite("Minimal return")
struct MinimalReturnTests {
    @Test func aChangeWithPreferMinimalAnswersTheSummary() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            let before = try session.state().json["version"]?.int ?? -1
            let reply = try session.must(
                session.transition(
                    #"{"coordinator":"TodosCoordinator","steps":[{"action":"push","route":"todo","input":"buy-milk"}]}"#,
                    headers: [("Prefer", "handling=lenient, return=minimal")]))
            #expect(reply.header("Preference-Applied") == "return=minimal")
            #expect(reply.header("ETag") == "\"\(before + 1)\"")
            #expect(reply.json["version"]?.int == before + 1)
            #expect(reply.json["session"]?.stringValue == session.id)
            #expect(reply.json["visible"]?["path"] == ["authenticated", "home", "favourites"])
            #expect(reply.json["tree"] == nil)
            #expect(reply.json["visible"]?["screen"] == nil)
            #expect(reply.json["result"]?["type"] == "TodosCoordinator")
            let full = try session.state()
            #expect(full.json["version"]?.int == before + 1)
            #expect(full.json["tree"] != nil)
        }
    }

    @Test func otherPreferencesGetTheFullDocument() throws {
        try withServer { server in
            let session = try server.createSession()
            let reply = try session.must(
                session.event(#"{"name":"completeOnboarding"}"#, headers: [("Prefer", "return=representation")]))
            #expect(reply.header("Preference-Applied") == nil)
            #expect(reply.json["tree"] != nil)
        }
    }

    /// RFC 7240: preferences are comma-separated, case-insensitive, with optional blanks and parameters.
    @Test(arguments: [
        ("return=minimal", true), ("RETURN=Minimal", true), (" return=minimal ; strict", true),
        ("respond-async,\treturn=minimal", true), ("return=minimalist", false), ("return = minimal", false),
        ("xreturn=minimal", false), ("", false),
    ])
    func thePreferHeaderIsReadAsTheRFCWritesIt(header: String, minimal: Bool) {
        let request = HTTPRequest(method: "POST", path: "/", headers: HTTPHeaders([("Prefer", header)]))
        #expect(SwitchyardAPI.prefersMinimalReturn(request) == minimal)
    }
}
