/// A coordinator that switches between `@Root` routes: the window root of an app (Jumper's `RootCoordinable`).
///
/// ```swift
/// final class AppCoordinator: RootCoordinatable {
///     let navigation = RootNavigation(initial: \AppCoordinator.onboarding)
///     @Root var onboarding = makeOnboarding
///     @Root var authenticated = makeAuthenticated   // input: the user name
///     func makeOnboarding() -> OnboardingCoordinator { OnboardingCoordinator() }
///     func makeAuthenticated(user: String) -> AuthenticatedCoordinator { AuthenticatedCoordinator(user: user) }
/// }
/// ```
/// It can also present modals over everything (`present(_:as:animated:onDismiss:)` of ``Coordinatable``).
public protocol RootCoordinatable: RootSwitchable {
    /// The root declaration: which `@Root` route it starts at.
    var navigation: RootNavigation<Self> { get }
}

extension RootCoordinatable {
    public var binding: CoordinatorBinding { navigation }
}
