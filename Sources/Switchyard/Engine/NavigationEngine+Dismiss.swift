/// Dismissal and alerts. Only called inside a transaction.
extension NavigationEngine {
    /// Removes the coordinator's item and everything above it in its parent; continues in the parent.
    func dismissCoordinator(_ nodeID: NodeID) throws -> NodeID {
        let node = try requireNode(nodeID)
        guard let (parentID, slot) = place(of: nodeID) else { throw NavigationError.cannotDismissRoot }
        switch slot {
        case .stack(let index)?:
            truncateStack(parentID, from: index)
            return parentID
        case .tab?:
            throw NavigationError.cannotDismissTabContent(node.typeName)
        case .root?, nil:
            throw NavigationError.notPresented(node.typeName)
        }
    }

    /// Dismisses the presentation layer the coordinator is in: the nearest modal or full-screen item at or below
    /// it, with everything above that item. A coordinator pushed outside any presentation layer is removed with
    /// everything above it, as Stinsen's `dismissCoordinator` does. Continues in the coordinator that owned the item.
    func dismiss(_ nodeID: NodeID) throws -> NodeID {
        var currentID = nodeID
        while let (parentID, slot) = place(of: currentID) {
            if case .stack(let index)? = slot, let parent = storage.nodes[parentID],
                let modal = parent.stack[...index].lastIndex(where: { $0.presentation?.isPresentation == true })
            {
                truncateStack(parentID, from: modal)
                return parentID
            }
            currentID = parentID
        }
        // No presentation layer: as `dismissCoordinator` (a pushed coordinator goes with all above it; the root, a
        // tab's content and a root content are refused with their reason).
        return try dismissCoordinator(nodeID)
    }

    /// Shows an alert on a coordinator (one at a time).
    func presentAlert(_ nodeID: NodeID, _ alert: Alert) throws -> NodeID {
        let node = try requireNode(nodeID)
        guard node.alert == nil else { throw NavigationError.alertAlreadyPresented }
        try storage.modify(nodeID) { $0.alert = alert }
        markChanged()
        return nodeID
    }

    /// Answers the alert: removes it and sends the chosen action's event, if any, from the coordinator.
    func respondToAlert(_ nodeID: NodeID, choice: Int) throws -> NodeID {
        let node = try requireNode(nodeID)
        guard let alert = node.alert else { throw NavigationError.noAlert }
        guard alert.actions.indices.contains(choice) else {
            throw NavigationError.invalidAlertChoice(choice, actions: alert.actions.map(\.title))
        }
        try storage.modify(nodeID) { $0.alert = nil }
        markChanged()
        let action = alert.actions[choice]
        if let name = action.event {
            _ = try deliver(
                FlowEvent(name: name, payload: action.payload ?? .null, sender: nodeID.description), from: nodeID)
        }
        return nodeID
    }
}
