import Switchyard

/// A root coordinator (switches between root routes) declared as data.
final class DefinedRootCoordinator: RootCoordinatable, DefinedCoordinator {
    let context: CoordinatorContext
    let navigation: RootNavigation<DefinedRootCoordinator>

    init(_ context: CoordinatorContext) {
        self.context = context
        navigation = RootNavigation(
            initialRoute: context.definition.initial ?? "", input: context.definition.initialInput)
    }
}
