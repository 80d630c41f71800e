import Foundation
import Switchyard
import SwitchyardDefinitions
import Testing

/// Every finding that has a place in the file says its line and column, in JSON and in YAML.
@Suite("Findings with line and column")
struct SourcePositionTests {
    private func places(_ text: String, _ format: DefinitionFormat) -> [String] {
        AppDefinition.load(text, format: format).diagnostics.map { finding in
            "\(finding.position.map { "\($0.line):\($0.column)" } ?? "-") \(finding.code) \(finding.pointer)"
        }
    }

    @Test func yamlFindingsSayTheLineAndColumnOfTheirValue() {
        let yaml = """
            name: shop
            root: App
            coordinators:
              App:
                kind: stack
                initial: home
                routes:
                  home: {kind: root, target: Home}
                  two: {target: Hom}
            screens:
              Home:
                title: "Book {{input}"
                colour: red
            """
        // The template's mistake no longer hides the unknown target: one round, both placed.
        #expect(
            places(yaml, .yaml) == [
                "9:21 unknownTarget /coordinators/App/routes/two/target",
                "12:12 invalidTemplate /screens/Home/title",
                "13:13 unknownMember /screens/Home/colour",
            ])
    }

    @Test func jsonFindingsSayTheLineAndColumnOfTheirValue() {
        let json = """
            {"name": "shop", "root": "App",
             "coordinators": {"App": {"kind": "stack", "initial": "home",
               "routes": {"home": {"kind": "root", "target": "Home"}, "two": {"target": "Hom"}}}},
             "screens": {"Home": {"title": "Ünïcode first", "content": [{"type": "text", "text": "a"},
               {"type": "button", "title": "Go", "action": {"type": "transition", "steps": [{"action": "push", "route": "tow"}]}}]}}}
            """
        #expect(
            places(json, .json) == [
                "3:77 unknownTarget /coordinators/App/routes/two/target",
                "5:109 unknownRoute /screens/Home/content/1/action/steps/0/route",
            ])
    }

    @Test func aMissingMemberIsPlacedAtTheValueThatLacksIt() {
        let yaml = """
            name: shop
            root: App
            coordinators:
              App:
                initial: home
                routes:
                  home: {kind: root, target: Home}
            screens:
              Home: {title: Home}
            """
        #expect(places(yaml, .yaml) == ["5:5 missingMember /coordinators/App"])
    }

    @Test func syntaxErrorsSayWhereTheParserStoppedOnce() {
        let json = AppDefinition.load("{\"name\": \"shop\",\n \"root\": [1,\n", format: .json).diagnostics
        #expect(json.map(\.position) == [SourcePosition(line: 3, column: 1)])
        #expect(json.first?.message == "the file is not JSON: unexpected end of text")
        let yaml = AppDefinition.load("name: shop\nroot: [a\n", format: .yaml).diagnostics
        #expect(yaml.first?.position?.line == 3)
        #expect(yaml.first?.message.contains("(line") == false)
    }

    @Test func theCommandLinesLinesStartWithFileLineAndColumn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("positions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.path + "/shop.yaml"
        try "name: shop\nroot: Ap\ncoordinators: {}\n".write(toFile: path, atomically: true, encoding: .utf8)
        let lines = DefinitionFiles(paths: [path]).lines.map(\.text)
        #expect(lines.first?.hasPrefix("\(path):2:7: error unknownCoordinator at /root:") == true, "\(lines)")
    }

    @Test func offsetsOfEveryValueOfAJSONText() {
        let text = Array(#"{"a": [1, {"b/c": true}, [], "x",], "e\u0301~": {}, "a": 2,}"#.utf8)
        let offsets = JSONValueOffsets.of(text)
        #expect(offsets[""] == 0)
        #expect(offsets["/a"] == 6)
        #expect(offsets["/a/0"] == 7)
        #expect(offsets["/a/1"] == 10)
        #expect(offsets["/a/1/b~1c"] == 18)
        #expect(offsets["/a/2"] == 25)
        #expect(offsets["/a/3"] == 29)
        #expect(offsets["/e\u{301}~0"] == 48)
        #expect(offsets.count == 8)
    }

    @Test func columnsCountCharactersNotBytes() {
        let lines = SourceLines(Array("ab\nüé x".utf8))
        #expect(lines.position(ofByte: 0) == SourcePosition(line: 1, column: 1))
        #expect(lines.position(ofByte: 3) == SourcePosition(line: 2, column: 1))
        #expect(lines.position(ofByte: 8) == SourcePosition(line: 2, column: 4))
    }
}
