import Foundation
import Switchyard
import SwitchyardDefinitions
import Testing

/// The example of each seed's README, as a definition of its own (Examples/Definitions/Seeds), walked.
@Suite("The seeds' examples as definitions")
struct SeedExampleTests {
    private func engine(_ file: String) throws -> NavigationEngine {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples/Definitions/Seeds/\(file)")
        let text = try String(contentsOf: url, encoding: .utf8)
        let loaded = AppDefinition.load(text, format: .yaml)
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        return try NavigationApp(definition: text, format: .yaml).makeEngine()
    }

    private func title(_ engine: NavigationEngine) -> JSONValue? {
        engine.stateValue()["visible"]?["screen"]?["title"]
    }

    private func send(
        _ engine: NavigationEngine, _ name: String, payload: JSONValue = .null, fields: [String: String] = [:]
    )
        throws
    {
        try engine.send(
            FlowEvent(name: name, payload: payload, fields: fields), from: try #require(engine.visibleItem).description)
    }

    @Test func jumper() throws {
        let engine = try engine("jumper.yaml")
        #expect(try engine.open("jumper://io.idevs/todo/hello-world") == .pending)
        try send(engine, "finishOnboarding")
        try engine.perform([Step(.push(route: "registration"))], from: "AuthorizationCoordinator")
        #expect(engine.visiblePath == ["authorization", "authorization", "registration"])
        try send(engine, "signIn")  // the pending link opens right after
        #expect(engine.visiblePath == ["home", "main", "todoList", "todo"])
        #expect(title(engine) == "Todo hello-world")
        try engine.perform([Step(.dismissModal), Step(.selectTab(route: "settings"))])
        try engine.perform(
            [Step(.pushStack(routes: [Step.RouteReference(route: "yellow"), Step.RouteReference(route: "green")]))],
            from: "SettingsCoordinator")
        #expect(engine.visiblePath == ["home", "settings", "settings", "yellow", "green"])
        try engine.perform([Step(.presentAlert(title: "Title", message: "Message"))], from: "SettingsCoordinator")
        #expect(String(decoding: engine.stateDocument(), as: UTF8.self).contains(#""alert":{"title":"Title""#))
    }

    @Test func stinsen() throws {
        let engine = try engine("stinsen.yaml")
        try engine.perform([Step(.route(route: "forgotPassword"))], from: "UnauthenticatedCoordinator")
        #expect(title(engine) == "Forgot password")
        try engine.perform([Step(.pop)], from: "UnauthenticatedCoordinator")
        try engine.perform([Step(.route(route: "registration"))], from: "UnauthenticatedCoordinator")
        try engine.perform([Step(.dismissCoordinator)], from: "RegistrationCoordinator")
        #expect(engine.visiblePath == ["unauthenticated", "start"])
        #expect(throws: NavigationError.self) { try send(engine, "login", fields: ["username": ""]) }
        #expect(try engine.open("stinsenapp://todo/gym") == .pending)
        try send(engine, "login", fields: ["username": "ada"])
        #expect(engine.visiblePath == ["authenticated", "todos", "todos", "todo"])
        #expect(title(engine) == "Todo gym")
        try engine.perform([Step(.selectTab(route: "home"))])
        #expect(title(engine) == "Hello, ada")
        // A favourite on the home tab: focusFirst(\.todos).popToRoot().route(to: \.todo, id) (focusing a tab
        // goes on with its coordinator: no child() as with Stinsen's NavigationViewCoordinator wrapper).
        try engine.perform(
            [Step(.focusFirst(route: "todos")), Step(.popToRoot), Step(.route(route: "todo", input: "groceries"))],
            from: "AuthenticatedCoordinator")
        #expect(title(engine) == "Todo groceries")
    }

    @Test func koordinator() throws {
        let engine = try engine("koordinator.yaml")
        try engine.perform([Step(.show(route: "detail"))], from: "DemoCoordinator")
        #expect(engine.visiblePath == ["main", "demo", "start", "detail"])
        try engine.perform([Step(.popToRoot), Step(.route(route: "terms"))], from: "DemoCoordinator")
        #expect(throws: NavigationError.self) { try engine.dismissTopModal() }  // a gesture cannot dismiss it
        #expect(title(engine) == "Terms")
        try engine.perform([Step(.pop)], from: "DemoCoordinator")
        #expect(try engine.open("koordinator://more") == .opened)
        #expect(engine.visiblePath == ["main", "more"])
    }

    @Test func flowEventsBubbleUpTheParentChain() throws {
        let engine = try engine("flow-events.yaml")
        try engine.perform([Step(.push(route: "create"))], from: "MoviesListCoordinator")
        try engine.perform([Step(.push(route: "rating", input: "draft"))], from: "MovieCreateOrUpdateCoordinator")
        try send(engine, "movieUpdated", payload: ["title": "Arrival"])
        #expect(engine.visiblePath == ["movies", "list"])
        #expect(title(engine) == "Movies (1; 1 updates)")
        #expect(throws: NavigationError.self) { try send(engine, "movieUpdated", payload: ["title": ""]) }
        #expect(title(engine) == "Movies (1; 1 updates)")
    }
}
