import Switchyard
import SwitchyardDefinitions
import Testing

/// The parts of the format that carry logic: `let` bindings, `cases` with `when`, `from`, `open` and the numeric and
/// length conditions, `when` on elements, `newId`, a tab's `onReselect`, decorations and deep-link requirements.
@Suite("Logic in definitions")
struct LogicTests {
    static let definition = """
        name: notes
        root: Tabs
        data: {notes: [], user: null}
        coordinators:
          Tabs:
            kind: tabs
            tabs: [notes, about]
            let:
              starred: {path: data.notes, where: {path: item.starred, equals: true}}
            routes:
              notes:
                kind: tab
                target: Notes
                item: {title: Notes, icon: note, badge: "{{^empty(starred)}}{{count(starred)}}{{/empty(starred)}}"}
                onReselect: [{action: focus, route: notes}, {action: popToRoot}]
              about: {kind: tab, target: About, item: {title: About, icon: info}}
          Notes:
            kind: stack
            initial: list
            decoration: {tint: "#ff0000", title: "Notes of {{data.user}}"}
            routes:
              list: {kind: root, target: List}
              note: {target: Note, input: string}
            events:
              add:
                fields: [text]
                let:
                  text: {path: [fields.text, payload.text], trim: true}
                require:
                  - {if: {path: text, isEmpty: false}, code: emptyText, message: Type a note}
                  - {if: {not: {path: text, longerThan: 10}}, code: tooLong, message: "'{{text}}' is too long"}
                  - {if: {not: {path: data.notes, longerThan: 1}}, code: full, category: conflict, message: Full}
                data:
                  - {append: notes, value: {text: "{{text}}", starred: false}, newId: {member: id, from: "{{text}}"}}
              star:
                payload: {type: object}
                cases:
                  - when: {path: "data.notes[id={{payload.id}}]", exists: false}
                  - when: {open: Missing}
                    steps: [{action: pop}]
                  - data: [{toggle: "notes[id={{payload.id}}].starred"}]
                    from: Tabs
                    steps: [{action: focus, route: about}]
          Missing:
            kind: stack
            initial: none
            routes:
              none: {kind: root, target: About}
        screens:
          List:
            title: Notes
            content:
              - {when: {path: data.notes, isEmpty: true}, type: text, text: No notes}
              - when: {path: data.notes, longerThan: 0}
                type: list
                items: data.notes
                row: {id: "{{item.id}}", title: "{{item.text}}", action: {type: transition, steps: [{action: push, route: note, input: "{{item.id}}"}]}}
          Note:
            title: "{{#note}}{{note.text}}{{/note}}{{^note}}Gone{{/note}}"
            let: {note: "data.notes[id={{input}}]"}
          About:
            title: About
            let: {milk: "data.notes[id=milk]"}
            content: [{type: button, title: Milk, action: {type: deepLink, url: "notes://note/{{milk.id}}"}}]
        deepLinks:
          - pattern: notes://note/:id
            require: [{if: {path: "data.notes[id={{link.id}}]", exists: true}, reason: "no note '{{link.id}}'"}]
            steps: [{action: focus, route: notes}, {action: push, route: note, input: "{{link.id}}"}]
        """

    private func start() throws -> NavigationEngine {
        try NavigationApp(definition: Self.definition, format: .yaml).makeEngine()
    }

    private func add(_ engine: NavigationEngine, _ fields: [String: String], payload: JSONValue = .null) throws {
        try engine.send(FlowEvent(name: "add", payload: payload, fields: fields), from: visibleItem(engine))
    }

    private func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as NavigationError {
            return "\(error.code) \(error.category.rawValue): \(error.message)"
        } catch {
            return "\(error)"
        }
    }

    private func visibleItem(_ engine: NavigationEngine) -> String {
        engine.stateValue()["visible"]?["item"]?.stringValue ?? ""
    }

    private func first(_ value: JSONValue?, at index: Int = 0) -> JSONValue? {
        guard case .array(let elements)? = value, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    private func texts(_ engine: NavigationEngine) -> [String] {
        guard case .array(let content)? = engine.stateValue()["visible"]?["screen"]?["content"] else { return [] }
        return content.compactMap { $0["text"]?.stringValue ?? $0["rows"].map { "\($0)" } }
    }

    @Test func aBindingTrimsAndRequirementsRefuseWithTheirCategory() throws {
        let engine = try start()
        #expect(texts(engine) == ["No notes"])
        #expect(failure { try add(engine, ["text": "   "]) } == "emptyText invalidInput: Type a note")
        #expect(failure { try add(engine, ["text": "far too long a note"]) }?.hasPrefix("tooLong") == true)
        try add(engine, ["text": "  Milk! "])
        try add(engine, [:], payload: ["text": "milk"])
        #expect(failure { try add(engine, ["text": "eggs"]) } == "full conflict: Full")
        let notes = first(engine.stateValue()["visible"]?["screen"]?["content"])?["rows"]
        #expect(first(notes)?["id"] == "milk" && first(notes)?["title"] == "Milk!")
        #expect(first(notes, at: 1)?["id"] == "milk-2")
        #expect(first(engine.stateValue()["tree"]?["tabs"])?["tabItem"]?["badge"] == nil)
    }

    @Test func casesTakeTheFirstThatHoldsAndFromRunsStepsElsewhere() throws {
        let engine = try start()
        try add(engine, ["text": "milk"])
        // No such note: the first case holds and does nothing, so the event counts as handled by nobody else.
        try engine.send(FlowEvent(name: "star", payload: ["id": "nope"]), from: visibleItem(engine))
        #expect(engine.stateValue()["tree"]?["selectedTab"] == "notes")
        try engine.send(FlowEvent(name: "star", payload: ["id": "milk"]), from: visibleItem(engine))
        let tree = engine.stateValue()["tree"]
        #expect(tree?["selectedTab"] == "about")
        let button = first(engine.stateValue()["visible"]?["screen"]?["content"])
        #expect(button?["action"] == ["type": "deepLink", "url": "notes://note/milk"])
        #expect(first(tree?["tabs"])?["tabItem"]?["badge"] == "1")
        #expect(first(tree?["tabs"])?["coordinator"]?["decoration"] == ["tint": "#ff0000", "title": "Notes of "])
    }

    @Test func aScreenBindingSelectsAnElementAndATabTappedAgainPopsToItsRoot() throws {
        let engine = try start()
        try add(engine, ["text": "milk"])
        try engine.perform([Step(.push(route: "note", input: "milk"))], from: "Notes")
        #expect(engine.stateValue()["visible"]?["screen"]?["title"] == "milk")
        try engine.tapTab("notes")
        #expect(engine.stateValue()["visible"]?["screen"]?["title"] == "Notes")
    }

    @Test func aDeepLinkRequirementRefusesAtOnce() throws {
        let engine = try start()
        #expect(failure { _ = try engine.open("notes://note/nope") }?.hasPrefix("deepLinkUnresolved") == true)
        try add(engine, ["text": "milk"])
        #expect(try engine.open("notes://note/milk") == .opened)
        #expect(engine.stateValue()["visible"]?["screen"]?["title"] == "milk")
    }

    @Test func namesInFromAndOpenAreChecked() {
        let broken = Self.definition.replacingOccurrences(of: "from: Tabs", with: "from: Tab")
            .replacingOccurrences(of: "open: Missing", with: "open: Mising")
        let found = AppDefinition.load(broken, format: .yaml).diagnostics.map(\.description)
        #expect(
            found.contains(
                "error unknownCoordinator at /coordinators/Notes/events/star/cases/2/from: 'Tab' is not a coordinator of this definition (did you mean 'Tabs'?)"
            ))
        #expect(
            found.contains {
                $0.hasPrefix("error unknownCoordinator at /coordinators/Notes/events/star/cases/1: 'Mising'")
            })
        let nowhere = Self.definition.replacingOccurrences(of: "notes://note/{{milk.id}}", with: "notes://nowhere")
        #expect(
            AppDefinition.load(nowhere, format: .yaml).diagnostics.map(\.description).contains(
                "warning deepLinkNotMatched at /screens/About/content/0/action/url: the link 'notes://nowhere' matches none of this definition's deep links (a tap answers 404) (add a deep link whose pattern matches it, or fix the link)"
            ))
        let reserved = Self.definition.replacingOccurrences(of: "let: {note:", with: "let: {data:")
        #expect(
            AppDefinition.load(reserved, format: .yaml).diagnostics.map(\.code).contains("invalidName"))
    }
}
