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
