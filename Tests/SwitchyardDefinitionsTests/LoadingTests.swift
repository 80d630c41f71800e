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
}
