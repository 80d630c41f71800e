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

    /// The selected tab tapped again: its route's `onReselect` steps, from here.
    func didReselectTab(_ route: String) throws {
        guard let steps = context.definition.routes.first(where: { $0.name == route })?.onReselect, !steps.isEmpty,
            let engine, let nodeID
        else { return }
        let scope = templateContext()
        try engine.perform(try steps.map { try $0.step(scope) }, from: nodeID)
    }
}
