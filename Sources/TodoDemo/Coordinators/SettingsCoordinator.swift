import Switchyard

/// Jumper's testbed: every transition from every page.
final class SettingsCoordinator: NavigationCoordinatable {
    let stack = NavigationStack(initial: \SettingsCoordinator.settings)

    @Root var settings = makeSettings
    @Route(.push) var green = makeGreen
    @Route(.push) var yellow = makeYellow
    @Route(.modal) var blue = makeBlue
    @Route(.modal) var settingsCoordinator = makeSettingsCoordinator
    @Route(.fullScreen) var settingsCoordinatorFullscreen = makeSettingsCoordinator
    @Route(.modal(dismissible: false)) var terms = makeTerms
    /// Only for admins: without the switch on Profile, the guard sends the user there, and the screen opens once the
    /// switch is on.
    @Route(.push, guardedBy: requireAdmin) var admin = makeAdmin

    func makeSettings() -> TestbedScreen { TestbedScreen(title: "Settings", color: nil) }
    func makeGreen() -> TestbedScreen { TestbedScreen(title: "Green", color: "#34c759") }
    func makeYellow() -> TestbedScreen { TestbedScreen(title: "Yellow", color: "#ffcc00") }
    func makeBlue() -> TestbedScreen { TestbedScreen(title: "Blue", color: "#0a84ff") }
    func makeSettingsCoordinator() -> SettingsCoordinator { SettingsCoordinator() }
    func makeTerms() -> ScreenContent {
        ScreenContent(
            title: "Terms",
            content: [
                .text("You must accept the terms to continue. This sheet cannot be swiped away."),
                .button("I agree", action: .step(.pop)),
            ])
    }

    func makeAdmin() -> ScreenContent {
        ScreenContent(
            title: "Admin",
            background: "#ff9f0a",
            content: [
                .image(systemName: "lock.open", color: "#1c1c1e"),
                .text("Admin tools", style: .title),
                .text("Only shown while the admin switch on Profile is on.", style: .caption),
                .button("Pop", role: .secondary, action: .step(.pop)),
            ])
    }

    /// The admin screen's guard: allowed in admin mode; otherwise redirected to the Profile tab, where the switch is.
    func requireAdmin() -> RouteGuardDecision {
        guard let tabs = router(AuthenticatedCoordinator.self) else {
            return .refuse(code: "adminOnly", message: "the admin screen is only for logged-in admins")
        }
        if tabs.adminMode { return .allow }
        return .redirect([Step(.hasRoot(route: "authenticated")), Step(.focus(route: "profile"))])
    }

    func customize(_ decoration: inout Decoration) {
        decoration.tint = "#5856d6"
    }
}

/// A testbed page: the same buttons on every page, so each transition can be tried from anywhere.
struct TestbedScreen: Screen {
    let title: String
    let color: String?

    /// Fixed: it reads only its title and colour.
    var contentRevision: Int? { 0 }

    func render() -> ScreenContent {
        ScreenContent(
            title: title, background: color,
            content: [
                .button("Push Green", action: .push(\SettingsCoordinator.green)),
                .button("Push Yellow", action: .push(\SettingsCoordinator.yellow)),
                .button("Present View", action: .route(\SettingsCoordinator.blue)),
                .button("Present Coordinator", action: .route(\SettingsCoordinator.settingsCoordinator)),
                .button(
                    "Present Coordinator Fullscreen", action: .route(\SettingsCoordinator.settingsCoordinatorFullscreen)
                ),
                .button("Present Terms", action: .route(\SettingsCoordinator.terms)),
                .button("Open Admin", action: .push(\SettingsCoordinator.admin)),
                .button(
                    "Show Alert", role: .secondary,
                    action: .transition([
                        Step(.presentAlert(title: "Alert", message: "Shown by the settings coordinator."))
                    ])),
                .button("Pop", role: .secondary, action: .step(.pop)),
                .button("Pop to Green", role: .secondary, action: .transition([Step(.popTo(route: "green"))])),
                .button("Pop to Yellow", role: .secondary, action: .transition([Step(.popTo(route: "yellow"))])),
                .button("Pop to Root", role: .secondary, action: .step(.popToRoot)),
                .button("Dismiss", role: .destructive, action: .step(.dismiss)),
            ])
    }
}
