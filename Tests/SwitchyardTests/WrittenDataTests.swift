import Switchyard
import Testing

/// A root whose data is a class instance, changed in place.
final class SharedNotesRoot: RootCoordinatable, PersistentCoordinator {
    final class Notes: Codable, Equatable {
        var lines: [String] = []
        static func == (lhs: Notes, rhs: Notes) -> Bool { lhs.lines == rhs.lines }
    }

    let navigation = RootNavigation(initial: \SharedNotesRoot.main)
    var persistentState = Notes()
    @Root var main = makeMain

    func makeMain() -> Label { Label(title: "notes") }
}

/// Restore documents reuse the JSON of data that did not change, and never keep data that did.
@Suite("Data written once while it stays the same")
struct WrittenDataTests {
    @Test func dataChangedBetweenDocumentsIsWrittenAsItIsNow() throws {
        let root = CounterRoot()
        let engine = try NavigationEngine(root: root)
        let first = try JSONValue(parsing: engine.restoreDocument())
        #expect(first["tree"]?["data"] == ["notes": [], "taps": 0])
        #expect(try JSONValue(parsing: engine.restoreDocument()) == first, "unchanged: the same")
        root.data.taps = 2
        root.data.notes.append("x")
        #expect(try JSONValue(parsing: engine.restoreDocument())["tree"]?["data"] == ["notes": ["x"], "taps": 2])
        root.data = .init()
        #expect(try JSONValue(parsing: engine.restoreDocument()) == first, "back as it was")
    }

    @Test func dataThatIsAClassInstanceChangedInPlaceIsWrittenAsItIsNow() throws {
        let root = SharedNotesRoot()
        let engine = try NavigationEngine(root: root)
        #expect(try JSONValue(parsing: engine.restoreDocument())["tree"]?["data"] == ["lines": []])
        root.persistentState.lines.append("kept")
        #expect(try JSONValue(parsing: engine.restoreDocument())["tree"]?["data"] == ["lines": ["kept"]])
    }
}
