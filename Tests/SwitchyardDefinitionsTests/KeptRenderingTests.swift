import Switchyard
import SwitchyardDefinitions
import Testing

/// Screens declared as data and kept renderings: a screen is rendered again when the session data changed, and,
/// when one of its conditions tests which coordinators are `open`, whenever the tree did.
@Suite("Kept renderings of screens declared as data")
struct KeptRenderingTests {
    static let definition = """
        name: pad
        root: Pad
        data: {notes: []}
        coordinators:
          Pad:
            kind: stack
            initial: list
            routes:
              list: {kind: root, target: List}
              status: {target: Status}
              compose: {target: Compose, presentation: modal}
            events:
              add:
                fields: [text]
                data: [{append: notes, value: "{{fields.text}}"}]
          Compose:
            kind: stack
            initial: form
            routes:
              form: {kind: root, target: Form}
        screens:
          List:
            title: Notes
            content: [{type: text, text: "{{#data.notes}}{{.}} {{/data.notes}}"}]
          Status:
            title: Status
            content:
              - {type: text, text: Status}
              - {when: {open: Compose}, type: text, text: Writing a note}
          Form:
            title: New note
        """

    /// The engine with renderings kept as the server keeps them, and the visible path's texts of its root screen.
    private func start() throws -> NavigationEngine {
        let engine = try NavigationApp(definition: Self.definition, format: .yaml).makeEngine()
        engine.screenRenderings = ScreenRenderings()
        engine.commitPolicy = CommitPolicy(makesRestoreDocuments: false)
        return engine
    }

    /// The texts of the screen of the Pad's root (`stack: false`) or of the screen pushed on it.
    private func texts(_ engine: NavigationEngine, stack: Bool = false) throws -> [String] {
        let pad = try JSONValue(parsing: engine.stateDocument())["tree"]
        var entry = pad?["root"]
        if stack {
            guard case .array(let pushed)? = pad?["stack"] else { return [] }
            entry = pushed.first
        }
        guard case .array(let elements)? = entry?["screen"]?["content"] else { return [] }
        return elements.compactMap { $0["text"]?.stringValue }
    }

    @Test func aScreenThatTestsAnOpenCoordinatorIsRenderedAgainWhenTheTreeChanges() throws {
        let engine = try start()
        try engine.perform([Step(.push(route: "status"))], from: "Pad")
        #expect(try texts(engine, stack: true) == ["Status"])
        try engine.perform([Step(.route(route: "compose"))], from: "Pad")
        #expect(try texts(engine, stack: true) == ["Status", "Writing a note"], "the tree changed, the data did not")
        try engine.perform([Step(.dismiss)], from: "Compose")
        #expect(try texts(engine, stack: true) == ["Status"])
    }

    @Test func aScreenIsRenderedAgainWhenTheDataChanges() throws {
        let engine = try start()
        #expect(try texts(engine) == [""])
        #expect(engine.screenRenderings?.count == 1, "the list reads only the data: it is kept")
        let list = try #require(engine.stateValue()["visible"]?["item"]?.stringValue)
        try engine.send(FlowEvent(name: "add", fields: ["text": "milk"]), from: list)
        #expect(try texts(engine) == ["milk "])
    }
}
