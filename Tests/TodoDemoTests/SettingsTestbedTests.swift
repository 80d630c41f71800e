import Switchyard
import Testing
import TodoDemo

@Suite("Settings testbed")
struct SettingsTestbedTests {
    func settings() throws -> Demo {
        let demo = try Demo().loggedIn()
        try demo.engine.tapTab("settings")
        return demo
    }

    @Test func everyPageOffersEveryTransition() throws {
        let demo = try settings()
        #expect(
            demo.buttons == [
                "Push Green", "Push Yellow", "Present View", "Present Coordinator", "Present Coordinator Fullscreen",
                "Present Terms", "Open Admin", "Show Alert", "Pop", "Pop to Green", "Pop to Yellow", "Pop to Root",
                "Dismiss",
            ])
    }

    @Test func pushesPopsAndPopTo() throws {
        let demo = try settings()
        try demo.steps([Step(.push(route: "green"))])
        try demo.steps([Step(.push(route: "yellow"))])
        try demo.steps([Step(.push(route: "green"))])
        try demo.steps([Step(.popTo(route: "yellow"))])
        #expect(demo.path == ["authenticated", "settings", "settings", "green", "yellow"])
        try demo.steps([Step(.pop)])
        try demo.steps([Step(.popToRoot)])
        #expect(demo.path == ["authenticated", "settings", "settings"])
    }

    @Test func presentViewAndCoordinatorsStackModals() throws {
        let demo = try settings()
        try demo.steps([Step(.route(route: "blue"))])
        try demo.steps([Step(.route(route: "settingsCoordinator"))])
        try demo.steps([Step(.route(route: "settingsCoordinatorFullscreen"))])
        #expect(
            demo.path == [
                "authenticated", "settings", "settings", "blue", "settingsCoordinator", "settings",
                "settingsCoordinatorFullscreen", "settings",
            ])
        try demo.steps([Step(.dismiss)])
        #expect(demo.path == ["authenticated", "settings", "settings", "blue", "settingsCoordinator", "settings"])
        try demo.engine.dismissTopModal()
        try demo.engine.dismissTopModal()
        #expect(demo.path == ["authenticated", "settings", "settings"])
    }

    @Test func dismissAtTheTabRootIsRefused() throws {
        let demo = try settings()
        #expect(throws: NavigationError.self) { try demo.steps([Step(.dismiss)]) }
    }

    @Test func termsCannotBeSwipedAwayButIAgreeCloses() throws {
        let demo = try settings()
        try demo.steps([Step(.route(route: "terms"))])
        #expect(throws: NavigationError.notDismissible(route: "terms")) { try demo.engine.dismissTopModal() }
        try demo.steps([Step(.pop)])
        #expect(demo.path == ["authenticated", "settings", "settings"])
    }

    @Test func showAlertThenAnswerIt() throws {
        let demo = try settings()
        try demo.steps([Step(.presentAlert(title: "Alert", message: "Shown by the settings coordinator."))])
        try demo.engine.perform([Step(.respondToAlert(choice: 0))], from: "SettingsCoordinator")
        #expect(!String(decoding: demo.engine.stateDocument(), as: UTF8.self).contains("\"alert\""))
    }
}
