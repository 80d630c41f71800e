import Switchyard

/// Onboarding: one welcome screen whose button sends the event the app handles by switching root.
final class OnboardingCoordinator: NavigationCoordinatable {
    let stack = NavigationStack(initial: \OnboardingCoordinator.welcome)
    @Root var welcome = makeWelcome

    func makeWelcome() -> ScreenContent {
        ScreenContent(
            title: "Welcome",
            content: [
                .image(systemName: "sparkles", color: "#0a84ff"),
                .text("Switchyard", style: .title),
                .text("Navigation that lives on the server: every tap here is a request, every screen a state."),
                .button("Complete onboarding", action: .event("completeOnboarding")),
            ])
    }
}
