import Switchyard
import Testing

/// Gestures over HTTP follow iOS: a cover hides the tab bar, swiping down does not close a full-screen cover, an
/// alert takes every touch; each refusal is a 409 problem that says why and changes nothing.
@Suite("Gestures as on iOS")
struct GestureTests {
    @Test func aFullScreenCoverAndAnAlertRefuseTheGesturesTheyBlock() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#))
            let cover = try session.must(
                session.transition(
                    #"{"coordinator":"SettingsCoordinator","steps":[{"action":"present","route":"settingsCoordinatorFullscreen"}]}"#
                ))
            let version = try #require(cover.version)
            @discardableResult
            func refused(_ body: String, _ code: String) throws -> Reply {
                let reply = try session.transition(body)
                #expect(reply.status == 409, "\(body): \(reply.text)")
                #expect(reply.json["code"]?.stringValue == code, "\(body): \(reply.text)")
                return reply
            }
            let tab = try refused(#"{"action":"selectTab","route":"home"}"#, "tabBarCovered")
            #expect(tab.json["detail"]?.stringValue?.contains("full-screen cover") == true)
            try refused(#"{"action":"dismissModal"}"#, "notSwipeDismissible")
            #expect(try session.state().version == version, "nothing changed")

            let inner = try #require(cover.json["visible"]?["coordinator"]?.stringValue)
            try session.must(
                session.transition(#"{"coordinator":"\#(inner)","steps":[{"action":"presentAlert","title":"Hi"}]}"#))
            let back = try refused(#"{"action":"back"}"#, "alertShown")
            #expect(back.json["detail"]?.stringValue?.contains("'Hi'") == true)
            try refused(#"{"action":"dismissModal"}"#, "alertShown")
            try session.must(
                session.transition(#"{"coordinator":"\#(inner)","steps":[{"action":"respondToAlert","choice":0}]}"#))
            // The cover's own button closes it (a dismiss step), then the tab bar answers again.
            try session.must(session.transition(#"{"coordinator":"\#(inner)","steps":[{"action":"dismiss"}]}"#))
            try session.must(session.transition(#"{"action":"selectTab","route":"home"}"#))
        }
    }
}
