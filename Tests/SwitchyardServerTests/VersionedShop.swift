import Switchyard

/// Version 1 of a shop: a list, an item screen under the route `detail`, a `legacy` screen, and a basket.
final class ShopV1: NavigationCoordinatable {
    let stack = NavigationStack(initial: \ShopV1.home)
    @Root var home = makeHome
    @Route(.push) var detail = makeDetail
    @Route(.push) var legacy = makeLegacy
    @Route(.push) var basket = makeBasket

    func makeHome() -> Label { Label(title: "Shop") }
    func makeDetail(id: String) -> Label { Label(title: "Item \(id)") }
    func makeLegacy() -> Label { Label(title: "Legacy") }
    func makeBasket() -> Label { Label(title: "Basket") }
}

/// Version 2: the coordinator renamed, `detail` is `item`, `legacy` is gone.
final class ShopV2: NavigationCoordinatable {
    let stack = NavigationStack(initial: \ShopV2.home)
    @Root var home = makeHome
    @Route(.push) var item = makeItem
    @Route(.push) var basket = makeBasket

    func makeHome() -> Label { Label(title: "Shop") }
    func makeItem(id: String) -> Label { Label(title: "Item \(id)") }
    func makeBasket() -> Label { Label(title: "Basket") }
}

/// A screen with a title.
struct Label: Screen {
    let title: String
    func render() -> ScreenContent { ScreenContent(title: title, content: [.text(title)]) }
}

/// The shop's versions as apps.
enum VersionedShop {
    static let v1 = NavigationApp(name: "shop", root: { ShopV1() })
    /// Renames what version 1 called `detail`; a user on `legacy` lands on what was beneath it.
    static let toV2 = AppMigration(from: 1).renamingCoordinator("ShopV1", to: "ShopV2")
        .renamingRoute("detail", to: "item", in: "ShopV1")
        .removingRoute("legacy", in: "ShopV1", landing: .below)
    static let v2 = NavigationApp(name: "shop", version: 2, root: { ShopV2() }, migrations: [toV2])
    /// Version 2 with a migration that forgets `legacy`: sessions on it cannot migrate.
    static let v2Forgetful = NavigationApp(
        name: "shop", version: 2, root: { ShopV2() },
        migrations: [
            AppMigration(from: 1).renamingCoordinator("ShopV1", to: "ShopV2")
                .renamingRoute("detail", to: "item", in: "ShopV1")
        ])

    /// A push of `route` (with `input`) as a transitions body.
    static func push(_ route: String, _ input: String? = nil) -> String {
        #"{"steps":[{"action":"push","route":"\#(route)""# + (input.map { #","input":"\#($0)""# } ?? "") + "}]}"
    }
}
