import Foundation
import Switchyard
import Testing

/// The wire vocabulary (``WireVocabulary``) is documented and rendered everywhere it must be: a new action or
/// screen element that one of these places misses fails here.
@Suite("Wire vocabulary")
struct VocabularyTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static func openAPI() throws -> JSONValue {
        try JSONValue(parsing: Array(text("docs/openapi.json").utf8))
    }

    @Test func theOpenAPIDocumentListsEveryActionAndType() throws {
        let schemas = try #require(try Self.openAPI()["components"]?["schemas"])
        let actions = schemas["StepAction"]?["enum"]?.strings ?? []
        #expect(actions == WireVocabulary.actions)
        let elementTypes = (schemas["Element"]?["oneOf"]?.array ?? []).compactMap { reference -> String? in
            guard let name = reference["$ref"]?.stringValue?.split(separator: "/").last else { return nil }
            return schemas[String(name)]?["properties"]?["type"]?["const"]?.stringValue
        }
        #expect(elementTypes == WireVocabulary.elementTypes)
        let actionTypes = (schemas["Action"]?["oneOf"]?.array ?? []).compactMap { reference -> String? in
            guard let name = reference["$ref"]?.stringValue?.split(separator: "/").last else { return nil }
            return schemas[String(name)]?["properties"]?["type"]?["const"]?.stringValue
        }
        #expect(actionTypes == WireVocabulary.screenActionTypes)
    }

    @Test func theStateDocumentReferenceNamesEveryActionAndType() throws {
        let reference = try Self.text("docs/state-document.md")
        for name in WireVocabulary.actions {
            #expect(reference.contains("| `\(name)` |"), "docs/state-document.md has no row for the action `\(name)`")
        }
        for type in WireVocabulary.elementTypes + WireVocabulary.screenActionTypes {
            #expect(reference.contains("\"type\": \"\(type)\""), "docs/state-document.md shows no `\(type)`")
        }
    }

    @Test func thePageRendersEveryElementAndFollowsEveryActionType() throws {
        let screen = try Self.text("Public/js/screen.js")
        for type in WireVocabulary.elementTypes {
            #expect(screen.contains("case '\(type)'"), "Public/js/screen.js does not render '\(type)'")
        }
        let app = try Self.text("Public/js/app.js")
        for type in WireVocabulary.screenActionTypes {
            #expect(app.contains("action.type === '\(type)'"), "Public/js/app.js does not follow '\(type)' actions")
        }
    }

    @Test func theWriterUsesTheVocabulary() throws {
        let engine = try NavigationEngine(root: VocabularyScreens())
        let content = engine.stateValue()["visible"]?["screen"]?["content"]?.array ?? []
        #expect(content.compactMap { $0["type"]?.stringValue } == WireVocabulary.elementTypes)
        let actions = content.flatMap { [$0["action"]] + ($0["rows"]?.array ?? []).map { $0["action"] } }
            .compactMap { $0?["type"]?.stringValue }
        #expect(Set(actions) == Set(WireVocabulary.screenActionTypes))
    }
}

/// A coordinator whose screen holds one element of every type.
final class VocabularyScreens: NavigationCoordinatable {
    let stack = NavigationStack(initial: \VocabularyScreens.all)
    @Root var all = makeAll

    func makeAll() -> ScreenContent {
        ScreenContent(
            title: "Everything",
            content: [
                .text("Text"), .image(systemName: "star"), .textField(id: "name", label: "Name"),
                .toggle(id: "on", title: "On", isOn: true, action: .event("toggled", fields: ["on"])),
                .button("Back", action: .step(.back)),
                .list([
                    ListRow(id: "a", title: "A", action: .push("all")),
                    ListRow(id: "b", title: "B", action: .deepLink("vocabulary://all")),
                ]),
            ])
    }
}
