import Foundation
import Switchyard

/// The demo's root: onboarding, then the login flow, then the tabs of a logged-in user.
public final class AppCoordinator: RootCoordinatable, PersistentCoordinator {
    public let navigation = RootNavigation(initial: \AppCoordinator.onboarding)
    /// The session's todos.
    public let store = TodoStore()

    @Root var onboarding = makeOnboarding
    @Root var unauthenticated = makeUnauthenticated
    @Root var authenticated = makeAuthenticated

    /// The todos are the session's data: saved with it, given back on restore (the tabs share the store).
    public var persistentState: [Todo] {
        get { store.todos }
        set { store.replaceAll(with: newValue) }
    }

    /// A new session's root.
    public init() {}

    func makeOnboarding() -> OnboardingCoordinator { OnboardingCoordinator() }
    func makeUnauthenticated() -> UnauthenticatedCoordinator { UnauthenticatedCoordinator() }
    func makeAuthenticated(user: String) -> AuthenticatedCoordinator {
        AuthenticatedCoordinator(user: user, store: store)
    }

    /// The events ``handle(_:)`` takes.
    public static let events = [
        FlowEventDeclaration("completeOnboarding", summary: "Leave the welcome screen for the login."),
        FlowEventDeclaration("login", fields: ["username"], summary: "Log in as the user named in the field."),
        FlowEventDeclaration("logout", summary: "Log out and go back to the login."),
    ]

    public func handle(_ event: FlowEvent) throws -> Bool {
        switch event.name {
        case "completeOnboarding", "logout":
            try root(\.unauthenticated)
            return true
        case "login":
            try logIn(event.fields["username"] ?? event.payload["username"]?.stringValue ?? "")
            return true
        default:
            return false
        }
    }

    /// Logs in: switches root to the user's tabs (a pending deep link completes right after).
    func logIn(_ user: String) throws {
        let name = user.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else {
            throw NavigationError(
                code: "emptyUsername", category: .invalidInput, message: "Username should not be empty")
        }
        try root(\.authenticated, name)
    }
}
