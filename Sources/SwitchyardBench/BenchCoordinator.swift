import Switchyard

/// A bench-local navigation coordinator, so the typed API (key paths) can be timed: a root screen and a pushed
/// screen that takes an id, like the demo's todos.
final class BenchCoordinator: NavigationCoordinatable {
    let stack = NavigationStack(initial: \BenchCoordinator.list)

    @Root var list = makeList
    @Route(.push) var item = makeItem

    func makeList() -> ScreenContent { ScreenContent(title: "List") }
    func makeItem(id: String) -> ScreenContent { ScreenContent(title: id) }
}
