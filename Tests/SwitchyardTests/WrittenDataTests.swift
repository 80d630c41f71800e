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

/// A root whose data is a JSON value (as an app declared as a file keeps it): written again only when it changed.
final class JSONDataRoot: RootCoordinatable, PersistentCoordinator {
    let navigation = RootNavigation(initial: \JSONDataRoot.main)
    var persistentState: JSONValue = ["name": "Caf\u{e9}", "tags": ["a"]]
    @Root var main = makeMain

    func makeMain() -> Label { Label(title: "data") }
}

/// Restore documents reuse the JSON of data that encodes as it did (`EncodesLike`), and never keep data that
/// changed.
@Suite("Data written once while it stays the same")
struct WrittenDataTests {
    @Test func jsonDataIsComparedByWhatItWritesNotByStringEquality() throws {
        let root = JSONDataRoot()
        let engine = try NavigationEngine(root: root)
        let first = try engine.restoreDocument()
        #expect(try engine.restoreDocument() == first, "unchanged: the same bytes")
        // The same text in Unicode's other form: Swift's == says equal, the bytes (and the document) differ.
        root.persistentState = ["name": "Cafe\u{301}", "tags": ["a"]]
        #expect(JSONValue.string("Caf\u{e9}") == JSONValue.string("Cafe\u{301}"))
        let second = try engine.restoreDocument()
        #expect(second != first)
        #expect(String(decoding: second, as: UTF8.self).contains("Cafe\u{301}"))
        root.persistentState = ["name": "Cafe\u{301}", "tags": ["a", "b"]]
        #expect(try JSONValue(parsing: engine.restoreDocument())["tree"]?["data"]?["tags"] == ["a", "b"])
    }

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

    @Test func arraysSharingStorageEncodeAlikeAndACopyChangedInPlaceDoesNot() {
        let kept = ["a", "b\u{e9}"]
        var current = kept  // shares the storage until it changes
        #expect(kept.encodesLike(current))
        current[1] = "be\u{301}"  // copied on write: another storage, compared element by element
        #expect(!kept.encodesLike(current), "Swift's == takes them as equal; the bytes differ")
        #expect(kept == current)
        current[1] = "b\u{e9}"
        #expect(kept.encodesLike(current), "equal values in other storage")
        #expect([String]().encodesLike([]))
        #expect(![String]().encodesLike(["a"]))
    }
}

/// A root with two roots to switch between (each switch a version) and JSON data.
final class SwitchingDataRoot: RootCoordinatable, PersistentCoordinator {
    let navigation = RootNavigation(initial: \SwitchingDataRoot.first)
    var persistentState: JSONValue = ["items": ["a", "b"]]
    @Root var first = makeFirst
    @Root var second = makeSecond

    func makeFirst() -> Label { Label(title: "first") }
    func makeSecond() -> Label { Label(title: "second") }
}

extension WrittenDataTests {
    /// After the first version, unchanged data is the bytes of the document before (not a copy of its own); each
    /// document still holds the data as it is.
    @Test func dataKeptFromTheDocumentBeforeIsWrittenAsItIs() throws {
        let root = SwitchingDataRoot()
        let engine = try NavigationEngine(root: root)
        func data() throws -> JSONValue? { try JSONValue(parsing: engine.restoreDocument())["tree"]?["data"] }
        #expect(try data() == ["items": ["a", "b"]])
        for (route, items) in [("second", ["a", "b"]), ("first", ["a", "b"]), ("second", ["c"]), ("first", ["c"])] {
            if items == ["c"] { root.persistentState = ["items": ["c"]] }
            _ = try route == "first" ? root.root(\.first) : root.root(\.second)
            #expect(try data() == ["items": .array(items.map { .string($0) })])
            #expect(try data() == ["items": .array(items.map { .string($0) })], "written twice alike")
        }
        #expect(engine.version == 4)
    }
}
