import Switchyard

/// A tab coordinator declared as data.
final class DefinedTabCoordinator: TabCoordinatable, DefinedCoordinator {
    let context: CoordinatorContext
    let tabs: TabNavigation<DefinedTabCoordinator>

    init(_ context: CoordinatorContext) {
        self.context = context
        tabs = TabNavigation(
            routes: context.definition.tabs, selected: context.definition.selected,
            addedLater: context.definition.addedLater)
    }
}
