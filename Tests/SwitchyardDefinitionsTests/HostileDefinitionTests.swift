import Switchyard
import SwitchyardDefinitions
import Testing

/// Definitions made to crash or stall the server are refused with a finding, quickly.
@Suite("Hostile definitions")
struct HostileDefinitionTests {
    private func codes(_ text: String, _ format: DefinitionFormat = .json) -> [String] {
        AppDefinition.load(text, format: format).diagnostics.map { "\($0.code) \($0.message)" }
    }

    private func findings(_ text: String, _ format: DefinitionFormat = .json) -> [String] {
        AppDefinition.load(text, format: format).diagnostics.map { "\($0.code) at \($0.pointer)" }
    }

    @Test(arguments: [
        ("{[a]: b}", "invalidYAML keys that are lists or mappings are not supported"),
        ("[a]: b", "invalidYAML keys that are lists or mappings are not supported"),
        ("? [a]\n: b", "invalidYAML keys that are lists or mappings are not supported"),
        ("a: &x [1]\nb: *x", "aliasNotAllowed YAML anchors and aliases ('&x')"),
        ("a: *x", "aliasNotAllowed YAML anchors and aliases ('*x')"),
        ("a: !!binary aGVsbG8=", "invalidYAML the tag 'tag:yaml.org,2002:binary' has no JSON value"),
        ("a: 1\na: 2", "invalidYAML the key 'a' is there twice"),
        ("a: 1\n---\nb: 2", "invalidYAML the file holds more than one YAML document"),
        (String(repeating: "[", count: 8_000), "tooDeep arrays and objects nest deeper than 64 levels"),
    ])
    func yamlNoDefinitionNeedsIsRefusedWithAFinding(yaml: String, reason: String) {
        let found = codes(yaml, .yaml)
        #expect(found.count == 1 && found[0].hasPrefix(reason), "\(found)")
    }

    /// What hid the nesting from the line scanner that came before the event reader: a quote inside a plain
    /// scalar, and CRLF line ends after an early comment. Each level is an event now, counted as it arrives.
    @Test func nestingHiddenFromALineScannerIsFoundOnTheParsersEvents() {
        let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
        #expect(findings("d: [a\"b, \(deep)]", .yaml) == ["tooDeep at /d/1" + String(repeating: "/0", count: 62)])
        let crlf = "# a comment\r\nname: x\r\nd: \(deep)\r\n"
        #expect(findings(crlf, .yaml).first?.hasPrefix("tooDeep at /d/0/0") == true)
    }

    @Test func aliasesAreRefusedOnSightSoNothingIsExpanded() {
        var laughs = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        for (index, name) in "bcdefghi".enumerated() {
            let previous = Array("abcdefghi")[index]
            laughs += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]\n"
        }
        #expect(findings(laughs, .yaml) == ["aliasNotAllowed at /a"])
        // Hidden from a line scanner the same way: a quote in a plain scalar before the anchor.
        #expect(findings("x: [a\"b, &y [1]]\nz: *y", .yaml) == ["aliasNotAllowed at /x/1"])
    }

    @Test func jsonIsReadWithinTheSameLimits() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(
            findings(#"{"name": "x", "data": {"list": \#(deep)}}"#).first?.hasPrefix("tooDeep at /data/list/0/0")
                == true)
        let many = "[" + Array(repeating: "0", count: 250_000).joined(separator: ",") + "]"
        #expect(findings(#"{"name": "x", "data": {"list": \#(many)}}"#) == ["tooManyNodes at /data/list/199996"])
        let long = String(repeating: "a", count: 70_000)
        #expect(findings(#"{"name": "x", "data": {"text": "\#(long)"}}"#) == ["tooLong at /data/text"])
        #expect(findings("name: x\ndata: {text: \(long)}", .yaml) == ["tooLong at /data/text"])
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

    /// Every construct that nests is bounded on the parsed template: sections under other delimiters too; blocks,
    /// parents and partials are refused (a definition has nothing to include).
    @Test(arguments: [
        (
            "{{=<% %>=}}" + String(repeating: "<%#a%>", count: 3_000),
            "invalidTemplate the title is not a valid template: its sections nest deeper than 32"
        ),
        (
            String(repeating: "{{^a}}", count: 3_000),
            "invalidTemplate the title is not a valid template: its sections nest deeper than 32"
        ),
        (
            String(repeating: "{{$block}}", count: 3_000),
            "invalidTemplate the title is not a valid template: '{{$block}}'"
        ),
        (
            String(repeating: "{{<parent}}", count: 3_000),
            "invalidTemplate the title is not a valid template: '{{<parent}}'"
        ),
        ("{{>partial}}", "invalidTemplate the title is not a valid template: '{{>partial}}'"),
        ("{{#a}}x", "invalidTemplate the title is not a valid template: the section 'a' is not closed"),
        ("{{#a}}x{{/b}}", "invalidTemplate the title is not a valid template: '{{/b}}' closes the section 'a'"),
    ])
    func everyConstructThatNestsIsBounded(title: String, finding: String) {
        let text =
            #"{"name": "x", "root": "M", "coordinators": {"M": {"kind": "stack", "initial": "h", "routes": {"h": {"kind": "root", "target": "H"}}}}, "screens": {"H": {"title": "\#(title)"}}}"#
        let found = codes(text)
        #expect(found.count == 1 && found[0].hasPrefix(finding), "\(found)")
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
