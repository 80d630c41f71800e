import Switchyard
import Testing

/// A root whose own data (a counter and a list) is saved and restored.
final class CounterRoot: RootCoordinatable, PersistentCoordinator {
    struct Data: Codable, Equatable {
        var taps = 0
        var notes: [String] = []
    }

    let navigation = RootNavigation(initial: \CounterRoot.main)
    var data = Data()
    @Root var main = makeMain
    @Root var child = makeChild

    var persistentState: Data {
        get { data }
        set { data = newValue }
    }

    func makeMain() -> CounterScreen { CounterScreen(root: self) }
    func makeChild() -> CounterChild { CounterChild() }
}

/// A child coordinator with data of its own, for nested restore.
final class CounterChild: NavigationCoordinatable, PersistentCoordinator {
    let stack = NavigationStack(initial: \CounterChild.home)
    var persistentState = "initial"
    @Root var home = makeHome

    func makeHome() -> Label { Label(title: persistentState) }
}

/// Shows the root's data, so a lost value shows in the document.
struct CounterScreen: Screen {
    let root: CounterRoot
    func render() -> ScreenContent {
        ScreenContent(title: "Taps: \(root.data.taps)", content: root.data.notes.map { .text($0) })
    }
}

@Suite("Persistent coordinators and the restore document")
struct PersistentCoordinatorTests {
    @Test func theRestoreDocumentBringsBackCoordinatorData() throws {
        let root = CounterRoot()
        let engine = try NavigationEngine(root: root)
        root.data = .init(taps: 3, notes: ["a", "b"])
        let stored = try engine.restoreDocument()
        let json = try JSONValue(parsing: stored)
        #expect(json["format"] == .string(NavigationEngine.restoreFormat))
        #expect(json["tree"]?["data"] == ["notes": ["a", "b"], "taps": 3])
        #expect(json["tree"]?["root"]?["screen"] == nil)

        let fresh = CounterRoot()
        let restored = try NavigationEngine(restoring: json, root: fresh)
        #expect(fresh.data == root.data)
        #expect(restored.stateDocument() == engine.stateDocument())
        #expect(try restored.restoreDocument() == stored)
    }

    @Test func nestedCoordinatorsGetTheirOwnData() throws {
        let root = CounterRoot()
        let engine = try NavigationEngine(root: root)
        let child = try root.root(\.child)
        child.persistentState = "changed"
        let restored = try NavigationEngine(
            restoring: try JSONValue(parsing: engine.restoreDocument()), root: CounterRoot())
        #expect(restored.nearest(CounterChild.self)?.persistentState == "changed")
        #expect(restored.stateDocument() == engine.stateDocument())
    }

    @Test func aStateDocumentRestoresStructureButNotData() throws {
        let root = CounterRoot()
        let engine = try NavigationEngine(root: root)
        root.data.taps = 5
        let fresh = CounterRoot()
        _ = try NavigationEngine(restoring: engine.stateValue(), root: fresh)
        #expect(fresh.data.taps == 0)
    }

    @Test func dataThatDoesNotFitTheAppIsRefused() throws {
        let engine = try NavigationEngine(root: CounterRoot())
        let stored = String(decoding: try engine.restoreDocument(), as: UTF8.self)
        let wrongShape = stored.replacingOccurrences(of: #""taps":0"#, with: #""taps":"many""#)
        #expect(wrongShape != stored)
        #expect(throws: NavigationError.restoreFailed("node n1 (CounterRoot) has data it cannot read")) {
            _ = try NavigationEngine(restoring: try JSONValue(parsing: Array(wrongShape.utf8)), root: CounterRoot())
        }
        // Data for a coordinator that keeps none (the app changed): refused, not ignored.
        let app = try NavigationEngine(root: AppRoot())
        var tree = try #require(app.stateValue()["tree"]?.objectValue)
        tree["data"] = 1
        #expect(throws: NavigationError.self) {
            _ = try NavigationEngine(restoring: ["tree": .object(tree)], root: AppRoot())
        }
        // A document of another format.
        let future = stored.replacingOccurrences(of: "switchyard.restore/1", with: "switchyard.restore/9")
        #expect(throws: NavigationError.self) {
            _ = try NavigationEngine(restoring: try JSONValue(parsing: Array(future.utf8)), root: CounterRoot())
        }
    }
}

@Suite("Restoring data is all or nothing")
struct RestoreDataAtomicityTests {
    @Test func dataThatDoesNotFitChangesNoCoordinator() throws {
        let root = CounterRoot()
        let engine = try NavigationEngine(root: root)
        let child = try root.root(\.child)
        child.persistentState = "kept"
        root.data.taps = 9
        var document = try #require(try JSONValue(parsing: engine.restoreDocument()).objectValue)
        var tree = try #require(document["tree"]?.objectValue)
        tree["data"] = ["taps": 1, "notes": []]  // fits
        var entry = try #require(tree["root"]?.objectValue)
        var node = try #require(entry["coordinator"]?.objectValue)
        node["data"] = 42  // the child keeps a string: does not fit
        entry["coordinator"] = .object(node)
        tree["root"] = .object(entry)
        document["tree"] = .object(tree)
        #expect(throws: NavigationError.self) { try engine.restore(to: .object(document)) }
        #expect(root.data.taps == 9, "the root's data was not replaced before the child's failed")
        #expect(child.persistentState == "kept")
    }
}
