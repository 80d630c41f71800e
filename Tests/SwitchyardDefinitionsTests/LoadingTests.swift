import Switchyard
import SwitchyardDefinitions
import Testing

@Suite("Loading app definitions")
struct LoadingTests {
    @Test func aSmallDefinitionLoads() throws {
        let loaded = AppDefinition.load(
            """
            {"name": "hello", "root": "Main",
             "coordinators": {"Main": {"kind": "stack", "initial": "home",
               "routes": {"home": {"kind": "root", "target": "Home"}, "greet": {"target": "Greeting", "input": "string"}}}},
             "screens": {"Home": {"title": "Hello"}, "Greeting": {"title": "Hello, {{input}}!"}}}
            """)
        #expect(loaded.diagnostics.isEmpty, "\\(loaded.diagnostics)")
        #expect(loaded.definition?.name == "hello")
    }

    /// YAML is read with YAML 1.2's core schema, as JSON would read it: `no` and `on` are words, `0755` is text,
    /// `.inf` (which JSON cannot hold) and dates are text; `0x1F`, `0o17`, `1.5`, `~` and `true` are what they say.
    @Test func yamlIsReadWithTheCoreSchema() throws {
        let yaml = """
            name: typed
            root: Main
            data: {answer: no, switch: on, port: 0755, big: .inf, date: 2024-01-01, hex: 0x1F, octal: 0o17,
                   float: 1.5, nothing: ~, flag: true}
            coordinators:
              Main: {kind: stack, initial: home, routes: {home: {kind: root, target: Home}}}
            screens:
              Home:
                title: "{{data.answer}} {{data.switch}} {{data.port}} {{data.big}} {{data.date}} {{data.hex}} {{data.octal}} {{data.float}} [{{data.nothing}}] {{data.flag}}"
            """
        let engine = try NavigationApp(definition: yaml, format: .yaml).makeEngine()
        #expect(
            engine.stateValue()["visible"]?["screen"]?["title"]
                == "no on 0755 .inf 2024-01-01 31 15 1.5 [] true")
    }
}
