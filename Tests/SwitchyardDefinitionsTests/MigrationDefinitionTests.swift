import Foundation
import Switchyard
import SwitchyardDefinitions
import Testing

/// A definition's `version` and `migrations`: the shop's two releases (Examples/Definitions/Releases) migrate a
/// session as written, and a migration that cannot work is refused with its pointer.
@Suite("Versions and migrations in definitions")
struct MigrationDefinitionTests {
    static func release(_ file: String) throws -> NavigationApp {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples/Definitions/Releases/\(file)")
        return try NavigationApp(definition: String(contentsOf: url, encoding: .utf8), format: .yaml)
    }

    @Test func theShopsSecondReleaseMigratesASessionOfTheFirst() throws {
        let (one, two) = (try Self.release("shop-v1.yaml"), try Self.release("shop-v2.yaml"))
        #expect(one.identity == AppVersion(name: "shop", version: 1))
        #expect(two.identity == AppVersion(name: "shop", version: 2))
        #expect(two.check().filter { $0.severity == .error }.isEmpty)
        let engine = try one.makeEngine()
        try engine.perform(
            [Step(.push(route: "product", input: "tea")), Step(.push(route: "giftWrap"))])
        let stored = try JSONValue(parsing: engine.restoreDocument())
        let migrated = try two.restoreEngine(from: two.migrated(stored, from: 1, through: [one, two]))
        #expect(migrated.visiblePath == ["catalogue", "item"])
        let document = try JSONValue(parsing: migrated.stateDocument())
        #expect(document["visible"]?["screen"]?["title"] == "Item tea")
        #expect(document["app"] == ["name": "shop", "version": 2])
        let data = try JSONValue(parsing: migrated.restoreDocument())["tree"]?["data"]
        #expect(data?["settings"] == ["currency": "EUR", "language": "en"], "currency moved, language defaulted")
        #expect(data?["currency"] == nil)
    }

    private func findings(_ migrations: String, version: Int = 2) -> [String] {
        let text =
            #"{"name": "shop", "version": \#(version), "migrations": \#(migrations), "root": "App", "#
            + #""coordinators": {"App": {"kind": "stack", "initial": "home", "routes": {"home": {"kind": "root", "target": "Home"}}}}, "#
            + #""screens": {"Home": {"title": "Home"}}}"#
        return AppDefinition.load(text).diagnostics.map(\.description)
    }

    @Test func aMigrationThatCannotWorkIsRefusedWithItsPointer() {
        #expect(
            findings(#"[{"from": 2}]"#).contains {
                $0.hasPrefix("error migrationFromLaterVersion at /migrations/0/from")
            })
        #expect(
            findings(#"[{"from": 1, "renameRoute": {}}]"#).contains {
                $0.hasPrefix("error unknownMember at /migrations/0/renameRoute")
            })
        #expect(
            findings(#"[{"from": 1, "removeRoutes": {"App": {"old": "above"}}}]"#).contains {
                $0.contains("/migrations/0/removeRoutes/App/old")
            })
        #expect(
            findings(#"[{"from": 1, "data": [{"remove": "a..b"}]}]"#).contains {
                $0.hasPrefix("error invalidPath at /migrations/0/data/0/remove")
            })
        #expect(
            findings(#"[{"from": 1, "data": [{"remove": "a", "set": {"path": "b", "value": 1}}]}]"#).contains {
                $0.hasPrefix("error invalidDataStep")
            })
        #expect(
            findings(
                #"[{"from": 1, "renameCoordinators": {"Old": "App"}, "data": [{"rename": {"from": "a", "to": "b.c"}}]}]"#
            ).isEmpty)
        #expect(findings(#"[]"#, version: 0).contains { $0.contains("/version") })
    }
}
