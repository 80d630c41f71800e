import Switchyard
import Testing

/// Flow events are declared by the coordinators that handle them: the catalog lists them, and an event nobody handles
/// is answered with the events that would be handled from where it was sent.
@Suite("Declared flow events")
struct FlowEventCatalogTests {
    @Test func theCatalogListsEachCoordinatorsEvents() throws {
        try withServer { server in
            let catalog = try server.get("/api/catalog")
            let coordinators = try #require(catalog.json["coordinators"]?.array)
            let todos = try #require(coordinators.first { $0["type"] == "TodosCoordinator" })
            let events = try #require(todos["events"]?.array)
            #expect(events.compactMap { $0["name"]?.stringValue } == ["toggleFavourite", "create"])
            #expect(events[0]["payload"]?["required"]?.array == ["id"])
            #expect(events[1]["fields"]?.array == ["name"])
            #expect(coordinators.allSatisfy { $0["events"]?.array != nil }, "every coordinator says, none or some")
        }
    }

    @Test func anEventNobodyHandlesListsTheEventsDeclaredFromThere() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            try session.must(session.transition(#"{"action":"selectTab","route":"todos"}"#))
            let refused = try session.event(#"{"name":"toggleFavourit","payload":{"id":"buy-milk"}}"#)
            #expect(refused.status == 422)
            #expect(refused.json["code"] == "eventNotHandled")
            let choices = refused.json["choices"]?.array?.compactMap(\.stringValue) ?? []
            #expect(choices.contains("toggleFavourite") && choices.contains("create") && choices.contains("logout"))
            #expect(!choices.contains("openTodo"), "HomeCoordinator is not on the way up from the Todos tab")
        }
    }
}
