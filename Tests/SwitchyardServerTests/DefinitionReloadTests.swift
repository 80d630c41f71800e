import Foundation
import Switchyard
import SwitchyardDefinitions
import SwitchyardServer
import SwitchyardSessions
import Testing
import TodoDemo

/// Reloading app definitions while serving (what `serve` does on SIGHUP): new sessions get the new definition and
/// sessions running go on; a reload under which a stored session could not be restored changes nothing and names
/// each such session.
@Suite("Reloading definitions")
struct DefinitionReloadTests {
    /// A shop whose stack can push `basket`; `title` is the home screen's title.
    static func shop(title: String, basket: Bool = true, name: String = "shop") -> NavigationApp {
        let basketRoute = basket ? #", "basket": {"target": "Basket"}"# : ""
        let basketScreen = basket ? #", "Basket": {"title": "Basket"}"# : ""
        return try! NavigationApp(
            definition: """
                {"name": "\(name)", "root": "Main",
                 "coordinators": {"Main": {"kind": "stack", "initial": "home",
                   "routes": {"home": {"kind": "root", "target": "Home"}\(basketRoute)}}},
                 "screens": {"Home": {"title": "\(title)"}\(basketScreen)}}
                """)
    }

    @Test func newSessionsGetTheNewDefinitionAndRunningOnesGoOn() throws {
        let store = try TemporaryStore()
        try store.withServer({ $0.apps = [Self.shop(title: "Shop"), TodoDemo.app] }) { server, _ in
            let old = try #require(try server.post("/api/sessions", nil).json["session"]?.stringValue)
            let outcome = server.api.reload(
                apps: [Self.shop(title: "New shop"), TodoDemo.app], checking: ["shop"])
            #expect(outcome == .reloaded)
            let new = try server.post("/api/sessions", nil)
            #expect(new.json["visible"]?["screen"]?["title"] == "New shop")
            // The session running goes on, at its version, read back under the new definition.
            let read = try server.get("/api/sessions/\(old)")
            #expect(read.status == 200 && read.json["version"] == 0)
            #expect(read.json["visible"]?["screen"]?["title"] == "New shop")
            let pushed = try server.post(
                "/api/sessions/\(old)/transitions", #"{"steps": [{"action": "push", "route": "basket"}]}"#)
            #expect(pushed.status == 200 && pushed.json["version"] == 1)
            #expect(try server.get("/api/catalog?app=shop").status == 200)
        }
    }

    @Test func aReloadThatStoredSessionsCouldNotRestoreUnderIsRefused() throws {
        let store = try TemporaryStore()
        try store.withServer({ $0.apps = [Self.shop(title: "Shop"), TodoDemo.app] }) { server, _ in
            let inBasket = try #require(try server.post("/api/sessions", nil).json["session"]?.stringValue)
            _ = try server.post(
                "/api/sessions/\(inBasket)/transitions", #"{"steps": [{"action": "push", "route": "basket"}]}"#)
            _ = try server.post("/api/sessions", nil)  // at home: restores under either definition

            let withoutBasket = server.api.reload(
                apps: [Self.shop(title: "Shop", basket: false), TodoDemo.app], checking: ["shop"])
            guard case .refused(let lines) = withoutBasket else {
                Issue.record("the reload was not refused")
                return
            }
            #expect(lines.count == 1)
            #expect(lines.first?.hasPrefix("session \(inBasket) of 'shop': ") == true)
            #expect(lines.first?.contains("basket") == true)

            let renamed = server.api.reload(
                apps: [Self.shop(title: "Shop", name: "store"), TodoDemo.app], checking: ["shop", "store"])
            guard case .refused(let gone) = renamed else {
                Issue.record("the reload that drops the app was not refused")
                return
            }
            #expect(gone.count == 2 && gone.allSatisfy { $0.hasSuffix("the app 'shop' is not served any more") })
            // Nothing changed: new sessions are still the old shop's, and the basket still opens.
            let fresh = try #require(try server.post("/api/sessions", nil).json["session"]?.stringValue)
            let pushed = try server.post(
                "/api/sessions/\(fresh)/transitions", #"{"steps": [{"action": "push", "route": "basket"}]}"#)
            #expect(pushed.status == 200)
        }
    }

    @Test func aReloadWithErrorsOrTwoAppsOfOneNameIsRefused() throws {
        try withServer({ $0.apps = [Self.shop(title: "Shop"), TodoDemo.app] }) { server in
            let twice = server.api.reload(
                apps: [Self.shop(title: "Shop"), Self.shop(title: "Other")], checking: ["shop"])
            guard case .refused(let lines) = twice else {
                Issue.record("two apps named 'shop' were served")
                return
            }
            #expect(lines.contains { $0.hasPrefix("app 'shop'") && $0.contains("2 apps are named 'shop'") })
        }
    }
}
