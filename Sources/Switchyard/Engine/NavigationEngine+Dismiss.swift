/// Dismissal and alerts. Only called inside a transaction.
extension NavigationEngine {
    /// Removes the coordinator's item and everything above it in its parent; continues in the parent. The root, a
    /// tab's content and a parent's root content are refused with their reason and the step that would work here,
    /// if any (``dismissHint(_:)``).
    func dismissCoordinator(_ nodeID: NodeID) throws -> NodeID {
        let node = try requireNode(nodeID)
        guard let (parentID, slot) = place(of: nodeID) else {
            throw NavigationError.cannotDismissRoot.hinted(dismissHint(node))
        }
        switch slot {
        case .stack(let index)?:
            truncateStack(parentID, from: index)
            return parentID
        case .tab?:
            throw NavigationError.cannotDismissTabContent(node.typeName).hinted(dismissHint(node))
        case .root?, nil:
            throw NavigationError.notPresented(node.typeName).hinted(dismissHint(node))
        }
    }

    /// Dismisses what the coordinator is in or, at the base of what is shown, what it presented. In order:
    ///
    /// 1. Inside a presentation layer (a sheet or cover item at or below the coordinator: its own item in its
    ///    parent's stack, or an ancestor's): that item with everything above it. So a presented coordinator
    ///    dismisses itself, with the sheets it presented, as Jumper's `dismiss()` does (its parent's controller
    ///    dismisses what it presented, and UIKit everything presented above that).
    /// 2. Pushed outside any presentation layer: the coordinator with everything above it, as Stinsen's
    ///    `dismissCoordinator` does.
    /// 3. At the base of what is shown (the root coordinator, a tab's content or a parent's root content), with a
    ///    sheet or cover in its own stack: the topmost one with everything pushed above it, as UIKit's `dismiss` on
    ///    a presenting controller closes what it presented. A screen's actions run at the coordinator owning it, so
    ///    a Done button (`.step(.dismiss)`, `{action: dismiss}`) on a screen route presented on a tab's stack closes
    ///    that sheet; of sheets presented on sheets, the top one (Jumper, through the tab bar controller, would
    ///    close them all).
    /// 4. Otherwise refused (`cannotDismissRoot`, `cannotDismissTabContent`, `notPresented`), naming `pop` when the
    ///    coordinator's stack holds pushed screens.
    ///
    /// Continues in the coordinator that owned the removed item.
    func dismiss(_ nodeID: NodeID) throws -> NodeID {
        if let (ownerID, index) = presentationLayer(of: nodeID) {
            truncateStack(ownerID, from: index)
            return ownerID
        }
        let node = try requireNode(nodeID)
        if case .stack? = place(of: nodeID)?.slot { return try dismissCoordinator(nodeID) }
        guard let top = node.stack.lastIndex(where: { $0.presentation?.isPresentation == true }) else {
            return try dismissCoordinator(nodeID)  // refused with its reason
        }
        truncateStack(nodeID, from: top)
        return nodeID
    }

    /// The sheet or cover item at or below the coordinator (its own item in its parent's stack, or an ancestor's),
    /// as its owner and stack index; nil outside any presentation layer.
    private func presentationLayer(of nodeID: NodeID) -> (owner: NodeID, index: Int)? {
        var currentID = nodeID
        while let (parentID, slot) = place(of: currentID) {
            if case .stack(let index)? = slot, let parent = storage.nodes[parentID],
                let modal = parent.stack[...index].lastIndex(where: { $0.presentation?.isPresentation == true })
            {
                return (parentID, modal)
            }
            currentID = parentID
        }
        return nil
    }

    /// The step that works where dismissing the coordinator is refused: `dismiss` for the topmost sheet or cover in
    /// its own stack, else `pop` when its stack holds pushed screens; nil when neither does.
    private func dismissHint(_ node: NodeState) -> String? {
        if let top = node.stack.last(where: { $0.presentation?.isPresentation == true }) {
            return "use dismiss to close the \((top.presentation ?? .modal).noun) '\(top.route)'"
        }
        guard node.kind == .navigation, !node.stack.isEmpty else { return nil }
        return "use pop to go back in this stack"
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
