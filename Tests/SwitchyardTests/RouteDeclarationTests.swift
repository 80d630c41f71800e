import Switchyard
import Testing

/// What a generic coordinator's specializations name themselves by.
protocol Species: SendableMetatype {
    static var name: String { get }
}

enum Cat: Species { static let name = "cat" }
enum Dog: Species { static let name = "dog" }

/// One declaration site, several owner types: each specialization has its own routes at the same lines.
final class PetCoordinator<Pet: Species>: NavigationCoordinatable {
    let stack = NavigationStack(initial: \PetCoordinator<Pet>.list)

    @Root var list = makeList
    @Route(.push) var detail = makeDetail

    func makeList() -> Label { Label(title: "\(Pet.name)s") }
    func makeDetail(id: String) -> Label { Label(title: "\(Pet.name) \(id)") }
}

@Suite("Route declarations")
struct RouteDeclarationTests {
    /// Route wrappers keep their factories once per declaration and owner type: two specializations of one generic
    /// coordinator, declared at the same lines, each build their own screens.
    @Test func specializationsOfOneGenericCoordinatorKeepTheirOwnRoutes() throws {
        let cats = PetCoordinator<Cat>()
        let dogs = PetCoordinator<Dog>()
        let catEngine = try NavigationEngine(root: cats)
        let dogEngine = try NavigationEngine(root: dogs)
        try cats.route(to: \.detail, "1")
        try dogs.route(to: \.detail, "2")
        #expect(catEngine.stateValue()["visible"]?["screen"]?["title"] == "cat 1")
        #expect(dogEngine.stateValue()["visible"]?["screen"]?["title"] == "dog 2")
        #expect(catEngine.stateValue()["tree"]?["root"]?["screen"]?["title"] == "cats")
        #expect(dogEngine.stateValue()["tree"]?["root"]?["screen"]?["title"] == "dogs")
    }

    /// A route costs a coordinator instance its declaration site only.
    @Test func aRouteWrapperHoldsOnlyWhereItIsDeclared() {
        #expect(MemoryLayout<Route<StackCoordinator, Void, Label>>.size == 16)
        #expect(MemoryLayout<Root<StackCoordinator, Void, Label>>.size == 16)
        #expect(MemoryLayout<TabRoute<StackCoordinator, Void, Label>>.size == 16)
    }
}

/// Routes declared by a superclass (coordinator protocols need a final class, so the routes' owner is this class).
class ListRoutes {
    @Route(.push) var detail = makeDetail

    func makeDetail(id: String) -> Label { Label(title: "Detail \(id)") }
}

/// Inherits `detail`, and declares routes of its own.
final class ArchiveList: ListRoutes, NavigationCoordinatable {
    let stack = NavigationStack(initial: \ArchiveList.list)

    @Root var list = makeList
    @Route(.push) var archived = makeArchived

    func makeList() -> Label { Label(title: "List") }
    func makeArchived() -> Label { Label(title: "Archived") }
}

/// Two routes declared at one site (a helper passing `fileID`, `line` and `column` on would do this).
final class SharedSite: NavigationCoordinatable {
    let stack = NavigationStack(initial: \SharedSite.home)

    @Root var home = makeHome
    @Route(.push, fileID: "Shared.swift", line: 1, column: 1) var first = makeFirst
    @Route(.push, fileID: "Shared.swift", line: 1, column: 1) var second = makeSecond

    func makeHome() -> Label { Label(title: "Home") }
    func makeFirst() -> Label { Label(title: "First") }
    func makeSecond() -> Label { Label(title: "Second") }
}

extension RouteDeclarationTests {
    /// A subclass reaches the routes its superclass declares (registered under the superclass) and its own.
    @Test func aSubclassKeepsTheRoutesItInherits() throws {
        let list = ArchiveList()
        let engine = try NavigationEngine(root: list)
        try engine.perform([Step(.push(route: "detail", input: "7"))])
        #expect(engine.stateValue()["visible"]?["screen"]?["title"] == "Detail 7")
        try list.route(to: \.archived)
        #expect(engine.visiblePath == ["list", "detail", "archived"])
    }

    /// Routes that share a declaration site would make the same thing: the app's check says so.
    @Test func routesDeclaredAtOneSiteAreAnErrorOfTheApp() {
        let findings = NavigationApp(name: "shared", root: { SharedSite() }).check()
        let shared = findings.filter { $0.code == "routeSiteShared" }
        #expect(shared.map(\.route) == ["second"])
        #expect(shared.first?.severity == .error)
        #expect(shared.first?.description.contains("'first'") == true)
    }
}
