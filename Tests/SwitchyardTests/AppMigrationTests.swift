import Switchyard
import Testing

/// Version 1 of a small shop: a stack with a list, an item screen, a screen removed in version 2, and saved data.
final class ShopOne: NavigationCoordinatable, PersistentCoordinator {
    let stack = NavigationStack(initial: \ShopOne.home)
    var persistentState: JSONValue = ["count": 2]
    @Root var home = makeHome
    @Route(.push) var detail = makeDetail
    @Route(.push) var legacy = makeLegacy
    @Route(.modal) var sheet = makeSheet

    func makeHome() -> Label { Label(title: "Home") }
    func makeDetail(id: String) -> Label { Label(title: "Item \(id)") }
    func makeLegacy() -> Label { Label(title: "Legacy") }
    func makeSheet() -> Label { Label(title: "Sheet") }
}

/// Version 2: the coordinator renamed, `detail` is `item`, `legacy` is gone, the data reshaped.
final class ShopTwo: NavigationCoordinatable, PersistentCoordinator {
    let stack = NavigationStack(initial: \ShopTwo.home)
    var persistentState: JSONValue = ["items": 0]
    @Root var home = makeHome
    @Route(.push) var item = makeItem
    @Route(.modal) var sheet = makeSheet

    func makeHome() -> Label { Label(title: "Home") }
    func makeItem(id: String) -> Label { Label(title: "Item \(id)") }
    func makeSheet() -> Label { Label(title: "Sheet") }
}

@Suite("App versions and migrations")
struct AppMigrationTests {
    static let one = NavigationApp(name: "shop", root: { ShopOne() })
    static let toTwo = AppMigration(from: 1)
        .renamingCoordinator("ShopOne", to: "ShopTwo")
        .renamingRoute("detail", to: "item", in: "ShopOne")
        .removingRoute("legacy", in: "ShopOne", landing: .below)
        .reshapingData(of: "ShopOne") { data in ["items": data["count"] ?? 0] }
    static let two = NavigationApp(name: "shop", version: 2, root: { ShopTwo() }, migrations: [toTwo])

    /// A version-1 engine on `detail`, then `legacy` above it, then a sheet.
    func deepOne() throws -> NavigationEngine {
        let engine = try Self.one.makeEngine()
        let shop = try #require(engine.rootCoordinator as? ShopOne)
        try shop.route(to: \.detail, "42")
        try shop.route(to: \.legacy)
        try shop.route(to: \.sheet)
        return engine
    }

    @Test func documentsNameTheAppAndItsVersion() throws {
        let engine = try Self.two.makeEngine()
        let state = try JSONValue(parsing: engine.stateDocument(session: "s"))
        #expect(state["app"] == ["name": "shop", "version": 2])
        let stored = try JSONValue(parsing: engine.restoreDocument())
        #expect(stored["app"] == ["name": "shop", "version": 2])
        #expect(try Self.two.restoreEngine(from: stored).app == AppVersion(name: "shop", version: 2))
    }

    @Test func anAppRestoresOnlyItsOwnVersion() throws {
        let stored = try JSONValue(parsing: try deepOne().restoreDocument())
        #expect(throws: NavigationError.self) { try Self.two.restoreEngine(from: stored) }
        // A document stored before apps had versions counts as version 1.
        guard case .object(var members) = stored else { return }
        members["app"] = nil
        #expect(try Self.one.restoreEngine(from: .object(members)).version == 3)
        #expect(throws: NavigationError.self) { try Self.two.restoreEngine(from: .object(members)) }
    }

    @Test func aMigrationRenamesRemovesAndReshapes() throws {
        let stored = try JSONValue(parsing: try deepOne().restoreDocument())
        let migrated = try Self.two.migrated(stored, from: 1, through: [Self.one, Self.two])
        let engine = try Self.two.restoreEngine(from: migrated)
        #expect(engine.visiblePath == ["home", "item"], "legacy and the sheet above it are gone; the item stays")
        #expect(engine.version == 3)
        let shop = try #require(engine.rootCoordinator as? ShopTwo)
        #expect(shop.persistentState == ["items": 2])
        let document = try JSONValue(parsing: engine.stateDocument())
        #expect(document["app"] == ["name": "shop", "version": 2])
        #expect(document["visible"]?["screen"]?["title"] == "Item 42")
    }

    @Test func aRemovedRouteCanLandOnAnother() throws {
        let two = NavigationApp(
            name: "shop", version: 2, root: { ShopTwo() },
            migrations: [
                Self.toTwo.removingRoute("legacy", in: "ShopOne", landing: .route("item", input: "legacy"))
            ])
        let stored = try JSONValue(parsing: try deepOne().restoreDocument())
        let engine = try two.restoreEngine(from: two.migrated(stored, from: 1, through: [two]))
        #expect(engine.visiblePath == ["home", "item", "item", "sheet"])
    }

    @Test func whatCannotMigrateSaysWhy() throws {
        let stored = try JSONValue(parsing: try deepOne().restoreDocument())
        // No migration at all.
        let bare = NavigationApp(name: "shop", version: 2, root: { ShopTwo() })
        #expect(throws: NavigationError.self) { try bare.migrated(stored, from: 1, through: [bare]) }
        // Renames that leave a route the new version does not have: the restore says which.
        let partial = NavigationApp(
            name: "shop", version: 2, root: { ShopTwo() },
            migrations: [AppMigration(from: 1).renamingCoordinator("ShopOne", to: "ShopTwo")])
        let document = try partial.migrated(stored, from: 1, through: [partial])
        let error = #expect(throws: NavigationError.self) { try partial.restoreEngine(from: document) }
        #expect(error?.message.contains("detail") == true)
        // The root route cannot land below.
        let rootless = AppMigration(from: 1).removingRoute("home", in: "ShopOne", landing: .below)
        let failure = #expect(throws: NavigationError.self) {
            try rootless.migrate(stored, to: AppVersion(name: "shop", version: 2))
        }
        #expect(failure?.message.contains("home") == true)
        // Data that cannot be reshaped.
        struct Unshaped: Error {}
        let reshaping = AppMigration(from: 1).reshapingData(of: "ShopOne") { _ in throw Unshaped() }
        #expect(throws: NavigationError.self) {
            try reshaping.migrate(stored, to: AppVersion(name: "shop", version: 2))
        }
    }

    @Test func migrationsChainThroughVersionsInBetween() throws {
        let three = NavigationApp(
            name: "shop", version: 3, root: { ShopTwo() },
            migrations: [AppMigration(from: 2).removingRoute("sheet", in: "ShopTwo", landing: .below)])
        let stored = try JSONValue(parsing: try deepOne().restoreDocument())
        #expect(three.migrationPath(from: 1, through: [three]) == nil, "version 2 is needed to get there")
        let path = try #require(three.migrationPath(from: 1, through: [Self.one, Self.two, three]))
        #expect(path.map(\.1.version) == [2, 3])
        let engine = try three.restoreEngine(from: three.migrated(stored, from: 1, through: [Self.two, three]))
        #expect(engine.visiblePath == ["home", "item"])
        #expect(engine.app == AppVersion(name: "shop", version: 3))
    }
}

@Suite("Checking app versions")
struct AppVersionCheckTests {
    @Test func aMigrationToARouteTheVersionLacksIsAnError() {
        let app = NavigationApp(
            name: "shop", version: 2, root: { ShopTwo() },
            migrations: [
                AppMigration(from: 1).renamingCoordinator("ShopOne", to: "ShopTwo")
                    .renamingRoute("detail", to: "details", in: "ShopOne"),
                AppMigration(from: 2), AppMigration(from: 1),
            ])
        let codes = app.check().map(\.code)
        #expect(codes.contains("migrationTargetMissing"))
        #expect(codes.contains("migrationFromLaterVersion"))
        #expect(codes.contains("duplicateMigration"))
        #expect(AppMigrationTests.two.check().filter { $0.severity == .error }.isEmpty)
    }

    @Test func versionsOfOneAppAreServedTogetherButNotOneVersionTwice() {
        #expect(NavigationApp.checkNames([AppMigrationTests.one, AppMigrationTests.two]).isEmpty)
        #expect(
            NavigationApp.checkNames([AppMigrationTests.two, AppMigrationTests.two]).map(\.diagnostic.code) == [
                "duplicateApp"
            ])
    }
}

extension AppVersionCheckTests {
    @Test func aCoordinatorRenamedToOneTheVersionLacksIsAnError() {
        let app = NavigationApp(
            name: "shop", version: 2, root: { ShopTwo() },
            migrations: [AppMigration(from: 1).renamingCoordinator("ShopOne", to: "ShopTwoo")])
        #expect(app.check().map(\.code) == ["migrationTargetMissing"])
    }

    @Test func migrationsThatLeadUpwardAreNeverFollowed() {
        // Refused by the check; a path search over them still ends.
        let two = NavigationApp(name: "shop", version: 2, root: { ShopTwo() }, migrations: [AppMigration(from: 3)])
        let three = NavigationApp(name: "shop", version: 3, root: { ShopTwo() }, migrations: [AppMigration(from: 2)])
        #expect(two.migrationPath(from: 1, through: [two, three]) == nil)
        #expect(three.migrationPath(from: 1, through: [two, three]) == nil)
    }
}

extension AppMigrationTests {
    @Test func aPendingRouteIsDroppedWhenARemovedRouteTookEntriesAway() throws {
        let removal = AppMigration(from: 1).removingRoute("legacy", in: "ShopOne", landing: .below)
        let pending: JSONValue = [
            "owner": ["sheet"], "type": "Elsewhere", "route": "other", "presentation": "push",
        ]
        func withPending(_ engine: NavigationEngine) throws -> JSONValue {
            guard case .object(var members) = try JSONValue(parsing: engine.restoreDocument()) else { return nil }
            members["pendingRoute"] = pending
            return .object(members)
        }
        let target = AppVersion(name: "shop", version: 2)
        let dropped = try removal.migrate(try withPending(try deepOne()), to: target)
        #expect(dropped["pendingRoute"] == nil, "the sheet it waited under left with legacy")
        let shallow = try Self.one.makeEngine()
        try #require(shallow.rootCoordinator as? ShopOne).route(to: \.detail, "1")
        let kept = try removal.migrate(try withPending(shallow), to: target)
        #expect(kept["pendingRoute"] == pending, "nothing was taken away")
    }
}
