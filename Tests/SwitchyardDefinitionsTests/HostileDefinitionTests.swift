import Switchyard
import SwitchyardDefinitions
import Testing

/// Definitions made to crash or stall the server are refused with a finding, quickly.
@Suite("Hostile definitions")
struct HostileDefinitionTests {
    private func codes(_ text: String, _ format: DefinitionFormat = .json) -> [String] {
        AppDefinition.load(text, format: format).diagnostics.map { "\($0.code) \($0.message)" }
    }

    @Test(arguments: [
        ("{[a]: b}", "YAML keys that are lists or objects are not supported"),
        ("[a]: b", "YAML keys that are lists or objects are not supported"),
        ("? [a]\n: b", "YAML complex keys"),
        ("a: &x [1]\nb: *x", "YAML anchors and aliases"),
        (String(repeating: "[", count: 8_000), "the YAML nests deeper than 64 levels"),
    ])
    func yamlTheLibraryCannotTakeIsRefusedBeforeIt(yaml: String, reason: String) {
        let found = codes(yaml, .yaml)
        #expect(found.count == 1 && found[0].hasPrefix("invalidYAML \(reason)"), "\(found)")
    }

    @Test func ordinaryYAMLWithQuotesCommentsAndStarsInTextStillReads() {
        let yaml = """
            name: hello   # a comment with [brackets]: and &things
            root: Main
            coordinators:
              Main: {kind: stack, initial: home, routes: {home: {kind: root, target: Home}}}
            screens:
              Home: {title: "5 * 3 [x]: y", content: [{type: text, text: 'rock & roll'}]}
            """
        #expect(AppDefinition.load(yaml, format: .yaml).diagnostics.isEmpty)
    }

    @Test func templateSectionsNestedTooDeepAreRefused() {
        let title = String(repeating: "{{#a}}", count: 5_000)
        let text =
            #"{"name": "x", "root": "M", "coordinators": {"M": {"kind": "stack", "initial": "h", "routes": {"h": {"kind": "root", "target": "H"}}}}, "screens": {"H": {"title": "\#(title)"}}}"#
        #expect(codes(text) == ["invalidTemplate the title is not a valid template: its sections nest deeper than 32"])
    }

    @Test func coordinatorsThatStartEachOtherAreFoundAndNeverCrashAnEngine() throws {
        let text =
            #"{"name": "x", "root": "A", "coordinators": {"A": {"kind": "stack", "initial": "s", "routes": {"s": {"kind": "root", "target": "B"}}}, "B": {"kind": "root", "initial": "t", "routes": {"t": {"kind": "root", "target": "A"}}}}}"#
        #expect(codes(text) == ["startLoop starting A starts B, then A"])
        // Were it served anyway, making a session is refused, not a crash.
        let reader = AppDefinition.load(text.replacingOccurrences(of: #""name": "x""#, with: #""name": "y""#))
        #expect(reader.definition == nil)
    }

    @Test func tooManyPartsAreRefusedAtOnce() {
        let links = Array(repeating: #"{"pattern": "x://a", "steps": []}"#, count: 201).joined(separator: ",")
        let text = #"{"name": "x", "root": "M", "coordinators": {}, "deepLinks": [\#(links)]}"#
        #expect(codes(text) == ["tooLarge the definition has 201 deep links, more than 200"])
    }
}
