import Foundation
import Switchyard

/// The login flow: login screen, forgot password (pushed), registration (a pushed coordinator sharing the stack).
final class UnauthenticatedCoordinator: NavigationCoordinatable {
    let stack = NavigationStack(initial: \UnauthenticatedCoordinator.login)
    @Root var login = makeLogin
    @Route(.push) var forgotPassword = makeForgotPassword
    @Route(.push) var registration = makeRegistration

    func makeLogin() -> ScreenContent {
        ScreenContent(
            title: "Login",
            content: [
                .textField(id: "username", label: "Username", placeholder: "Your name"),
                .button("Login", action: .event("login", fields: ["username"])),
                .button("Register", role: .secondary, action: .route(\UnauthenticatedCoordinator.registration)),
                .button(
                    "Forgot password?", role: .secondary, action: .route(\UnauthenticatedCoordinator.forgotPassword)),
            ])
    }

    func makeForgotPassword() -> ScreenContent {
        ScreenContent(
            title: "Forgot password",
            content: [
                .text("We sent you a link to reset your password."),
                .button("OK", action: .step(.popToRoot)),
            ])
    }

    func makeRegistration() -> RegistrationCoordinator { RegistrationCoordinator() }

    static let events = [
        FlowEventDeclaration("login", fields: ["username"], summary: "Log in (an empty name shows an alert).")
    ]

    func handle(_ event: FlowEvent) throws -> Bool {
        guard event.name == "login" else { return false }
        let name = (event.fields["username"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty {
            try presentAlert(
                title: "Error", message: "Username should not be empty", actions: [AlertAction("OK", role: .cancel)])
            return true
        }
        return false  // a name: the app logs in
    }
}
