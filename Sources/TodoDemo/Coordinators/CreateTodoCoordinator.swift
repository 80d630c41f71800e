import Switchyard

/// The create flow, presented modally with its own navigation. "Create" sends an event the todos coordinator
/// handles by adding the todo and dismissing this coordinator.
final class CreateTodoCoordinator: NavigationCoordinatable {
    let stack = NavigationStack(initial: \CreateTodoCoordinator.form)
    @Root var form = makeForm

    func makeForm() -> ScreenContent {
        ScreenContent(
            title: "New todo",
            content: [
                .textField(id: "name", label: "Name", placeholder: "What needs doing?"),
                .button("Create", action: .event("create", fields: ["name"])),
                .button("Cancel", role: .secondary, action: .step(.dismissCoordinator)),
            ])
    }
}
