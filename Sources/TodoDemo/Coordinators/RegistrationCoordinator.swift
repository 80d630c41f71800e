import Foundation
import Switchyard

/// Registration, pushed by the login flow: it continues the same visible stack. "Register" dismisses it and logs in.
final class RegistrationCoordinator: NavigationCoordinatable {
    let stack = NavigationStack(initial: \RegistrationCoordinator.start)
    @Root var start = makeStart
    @Route(.push) var password = makePassword

    func makeStart() -> ScreenContent {
        ScreenContent(
            title: "Register",
            content: [
                .textField(id: "username", label: "Username", placeholder: "Choose a name"),
                .button("Next step", action: .event("next", fields: ["username"])),
            ])
    }

    func makePassword(username: String) -> ScreenContent {
        ScreenContent(
            title: "Password",
            content: [
                .text("Almost there, \(username)."),
                .textField(id: "password", label: "Password", secure: true),
                .button("Register", action: .event("register", payload: ["username": .string(username)])),
            ])
    }

    static let events = [
        FlowEventDeclaration("next", fields: ["username"], summary: "Go on with the name typed."),
        FlowEventDeclaration(
            "register", payload: ["type": "object", "properties": ["username": ["type": "string"]]],
            summary: "Finish registering with the chosen name."),
    ]

    func handle(_ event: FlowEvent) throws -> Bool {
        switch event.name {
        case "next":
            let name = (event.fields["username"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty else {
                try presentAlert(title: "Error", message: "Username should not be empty")
                return true
            }
            try route(to: \.password, name)
            return true
        case "register":
            let app = router(AppCoordinator.self)
            let name = event.payload["username"]?.stringValue ?? ""
            try dismissCoordinator()
            try app?.logIn(name)
            return true
        default:
            return false
        }
    }
}
