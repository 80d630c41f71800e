import Foundation
import Switchyard
import SwitchyardDefinitions
import Testing

/// Every definition in docs/app-definitions.md (a block after `<!-- definition -->`) is sound and runs.
@Suite("The definitions of the docs")
struct DocExampleTests {
    private static let examples: [(format: DefinitionFormat, text: String)] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/app-definitions.md")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.components(separatedBy: "<!-- definition -->\n```").dropFirst().map { block in
            let language = String(block.prefix { $0 != "\n" })
            let body = block.drop { $0 != "\n" }.dropFirst().components(separatedBy: "\n```")[0]
            return (language == "yaml" ? .yaml : .json, body)
        }
    }()

    @Test func theDocsHaveTheirExamples() {
        #expect(Self.examples.count == 3)
    }

    @Test func everyExampleIsSound() throws {
        for (format, text) in Self.examples {
            let loaded = AppDefinition.load(text, format: format)
            #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
            _ = try NavigationApp(definition: text, format: format).makeEngine()
        }
    }

    /// The handlers section's notes: a blank note shows an alert, a note is added with an id made from its text.
    @Test func theNotesExampleAddsNotesWithIDs() throws {
        let (format, text) = try #require(Self.examples.first { $0.text.contains(#""name": "notes""#) })
        let engine = try NavigationApp(definition: text, format: format).makeEngine()
        let item = engine.stateValue()["visible"]?["item"]?.stringValue ?? ""
        try engine.send(FlowEvent(name: "add", fields: ["text": "  "]), from: item)
        #expect(engine.stateValue()["tree"]?["alert"]?["title"] == "Type a note")
        try engine.perform([Step(.respondToAlert(choice: 0))], from: "Main")
        try engine.send(FlowEvent(name: "add", fields: ["text": " Buy milk "]), from: item)
        guard case .array(let content)? = engine.stateValue()["visible"]?["screen"]?["content"] else {
            Issue.record("no content")
            return
        }
        #expect(content.first?["rows"] == [["id": "buy-milk", "title": "Buy milk"]])
    }

    @Test func theReadmesDefinitionGreets() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../README.md")
        let readme = try String(contentsOf: file, encoding: .utf8)
        let yaml = try #require(readme.components(separatedBy: "```yaml\n").dropFirst().first)
            .components(separatedBy: "\n```")[0]
        #expect(AppDefinition.load(yaml, format: .yaml).diagnostics.isEmpty)
        let engine = try NavigationApp(definition: yaml, format: .yaml).makeEngine()
        try engine.perform([Step(.push(route: "greeting", input: "Ada"))])
        #expect(engine.stateValue()["visible"]?["screen"]?["title"] == "Hello, Ada!")
    }

    @Test func theSmallestAppGreets() throws {
        let engine = try NavigationApp(definition: Self.examples[0].text, format: .yaml).makeEngine()
        try engine.perform([Step(.push(route: "greeting", input: "Ada"))])
        #expect(engine.stateValue()["visible"]?["screen"]?["title"] == "Hello, Ada!")
    }

    @Test func theCounterCounts() throws {
        let engine = try NavigationApp(definition: Self.examples[1].text).makeEngine()
        let item = try #require(engine.visibleItem).description
        #expect(throws: NavigationError.self) { try engine.send(FlowEvent(name: "add"), from: item) }
        try engine.send(FlowEvent(name: "add", fields: ["amount": "3"]), from: item)
        try engine.send(FlowEvent(name: "add", fields: ["amount": "4"]), from: item)
        #expect(engine.stateValue()["visible"]?["screen"]?["title"] == "Count: 2")
        #expect(try JSONValue(parsing: engine.restoreDocument())["tree"]?["data"]?["log"] == ["3", "4"])
    }
}
