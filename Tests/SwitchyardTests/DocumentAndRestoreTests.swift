import Switchyard
import Testing

@Suite("State document and restore")
struct DocumentAndRestoreTests {
    func deepState() throws -> NavigationEngine {
        let (engine, app) = try makeEngine()
        let tabs = try app.root(\.tabs)
        let two = try tabs.focus(\.two)
        try two.route(to: \.profile, Profile(name: "Ada", age: 36)).route(to: \.terms)
        let nested = try two.route(to: \.nested)
        try nested.route(to: \.detail, "x").route(to: \.cover)
        try tabs.addTab(\.extra, "Added")
        try tabs.present(\.sheet)
        try nested.presentAlert(title: "Saved", actions: [AlertAction("OK", event: "ping")])
        try engine.open("test://app/detail/9")  // pending: the root is not `main`
        return engine
    }

    @Test func encodeRestoreEncodeIsIdentical() throws {
        let engine = try deepState()
        let first = engine.stateDocument(session: "s")
        let restored = try NavigationEngine(
            restoring: try JSONValue(parsing: first), root: AppRoot(), deepLinks: AppRoot.deepLinks)
        let second = restored.stateDocument(session: "s")
        #expect(String(decoding: first, as: UTF8.self) == String(decoding: second, as: UTF8.self))
        #expect(restored.version == engine.version)
        #expect(restored.pendingDeepLink == "test://app/detail/9")
    }

    @Test func aRestoredEngineKeepsWorkingAndNeverReusesIds() throws {
        let engine = try deepState()
        let restored = try NavigationEngine(restoring: engine.stateValue(), root: AppRoot())
        let before = Set(idsIn(restored.stateValue()))
        // The restored alert takes every touch, as it did before: a gesture waits, code goes on.
        #expect(throws: NavigationError.self) { try restored.dismissTopModal() }
        try restored.perform([Step(.push(route: "a"))], from: "StackCoordinator")
        let after = Set(idsIn(restored.stateValue()))
        guard case .number(let next)? = engine.stateValue()["nextId"] else {
            Issue.record("no nextId")
            return
        }
        let added = after.subtracting(before)
        #expect(!added.isEmpty)
        #expect(added.allSatisfy { Int($0.dropFirst())! >= Int(next) })
    }

    @Test func restoreRejectsADocumentThatDoesNotFitTheApp() throws {
        let engine = try deepState()
        var text = String(decoding: engine.stateDocument(), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"route\":\"two\"", with: "\"route\":\"nine\"")
        #expect(throws: NavigationError.self) {
            _ = try NavigationEngine(restoring: try JSONValue(parsing: Array(text.utf8)), root: AppRoot())
        }
        #expect(throws: NavigationError.self) {
            _ = try NavigationEngine(restoring: ["tree": ["id": "n1"]], root: AppRoot())
        }
    }

    @Test func theDocumentDescribesTheVisibleScreenAndTree() throws {
        let (engine, app) = try makeEngine()
        let main = try app.root(\.main)
        try main.route(to: \.detail, "42")
        let state = engine.stateValue()
        #expect(state["version"] == 2)
        #expect(state["visible"]?["path"] == ["main", "home", "detail"])
        #expect(state["visible"]?["coordinator"]?.stringValue == main.nodeID?.description)
        #expect(state["visible"]?["screen"]?["title"] == "Detail 42")
        #expect(state["tree"]?["kind"] == "root")
        #expect(state["tree"]?["type"] == "AppRoot")
        #expect(state["tree"]?["root"]?["coordinator"]?["kind"] == "navigation")
    }

    @Test func screensRenderFromCurrentDataWhenRead() throws {
        final class Counter: RootCoordinatable {
            let navigation = RootNavigation(initial: \Counter.count)
            var value = 1
            @Root var count = makeCount
            func makeCount() -> CountScreen { CountScreen(owner: self) }
        }
        struct CountScreen: Screen {
            let owner: Counter
            func render() -> ScreenContent { ScreenContent(title: "Count \(owner.value)") }
        }
        let counter = Counter()
        let engine = try NavigationEngine(root: counter)
        #expect(engine.stateValue()["visible"]?["screen"]?["title"] == "Count 1")
        counter.value = 2
        #expect(engine.stateValue()["visible"]?["screen"]?["title"] == "Count 2")
    }

    @Test func jsonWriterEscapesAndOrdersKeys() throws {
        let value: JSONValue = ["b": "quote\" back\\ <tag>\n", "a": [1, 2.5, true, nil]]
        #expect(value.jsonString == #"{"a":[1,2.5,true,null],"b":"quote\" back\\ \u003ctag>\n"}"#)
        #expect(try JSONValue(parsing: value.serialized()) == value)
    }

    @Test func jsonWriterHandlesDeepNestingNumbersAndControlCharacters() throws {
        var value: JSONValue = ["leaf": [1, -2, 0, 1_234_567_890_123, 2.5, "\u{1}tab\t"]]
        for level in 0..<100 { value = level.isMultiple(of: 2) ? [value, "x"] : ["k": value, "n": .null] }
        let text = value.serialized()
        #expect(try JSONValue(parsing: text) == value)
        #expect(String(decoding: text, as: UTF8.self).contains(#"[1,-2,0,1234567890123,2.5,"\u0001tab\t"]"#))
    }

    func idsIn(_ value: JSONValue) -> [String] {
        switch value {
        case .object(let members):
            var ids: [String] = []
            if let id = members["id"]?.stringValue { ids.append(id) }
            for (_, member) in members { ids += idsIn(member) }
            return ids
        case .array(let elements): return elements.flatMap(idsIn)
        default: return []
        }
    }
}

extension DocumentAndRestoreTests {
    /// A document naming one number twice (nodes and items share one counter) is refused before anything is
    /// restored, whether it makes a new engine or takes an engine back.
    @Test(arguments: [
        (#""id":"i5""#, #""id":"i3""#),  // an item's id given to another item
        (#""id":"n4""#, #""id":"n3""#),  // a node's number is its hosting item's
        (#""id":"i5""#, #""id":"i1""#),  // an item's number is the root's
    ])
    func aDocumentNamingOneIdTwiceIsRefused(original: String, repeated: String) throws {
        let (engine, app) = try makeEngine()
        _ = try app.root(\.main)
        let text = String(decoding: try engine.restoreDocument(), as: UTF8.self)
        // The root n1 shows main (i3), whose node n4 shows home (i5).
        #expect(text.contains(#""id":"n1""#) && text.contains(#""id":"i3""#) && text.contains(#""id":"n4""#))
        #expect(text.contains(original))
        let document = try JSONValue(parsing: Array(text.replacingOccurrences(of: original, with: repeated).utf8))
        do {
            _ = try NavigationEngine(restoring: document, root: AppRoot())
            Issue.record("a new engine was restored from a document naming an id twice")
        } catch let error as NavigationError {
            #expect(error.code == "restoreFailed")
            #expect("\(error)".contains("appears twice"))
        }
        let refusal = expectRefusal(engine, "restoreFailed") { try engine.restore(to: document) }
        #expect(refusal.map { "\($0)".contains("appears twice") } == true)
    }
}
