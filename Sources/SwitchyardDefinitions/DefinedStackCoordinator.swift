import Switchyard

/// A navigation coordinator (a stack over a root route) declared as data.
final class DefinedStackCoordinator: NavigationCoordinatable, DefinedCoordinator {
    let context: CoordinatorContext
    let stack: NavigationStack<DefinedStackCoordinator>

    init(_ context: CoordinatorContext) {
        self.context = context
        stack = NavigationStack(initialRoute: context.definition.initial ?? "", input: context.definition.initialInput)
    }
}
