/// User gestures: back, dismiss modal, select tab. They act on what is visible as iOS lets a user: an alert takes
/// every touch until it is answered, a sheet or full-screen cover hides the tab bar under it, and swiping down does
/// not close a full-screen cover. They respect non-dismissible modals and the owners' `shouldLeave` vetoes, and say
/// why they were refused. Only called inside a transaction.
extension NavigationEngine {
    /// Pops the visible pushed item, whoever owns it. Continues in the coordinator that owned it.
    func back() throws -> NodeID {
        let entries = visibleEntries()
        try refuseUnderAlert(entries)
        guard let top = topScreen(in: entries) else { throw NavigationError.cannotGoBack }
        var owner = top.owner
        var slot = top.slot
        // Climb while the visible screen is the base of a coordinator hosted as its parent's root or tab.
        while true {
            switch slot {
            case .stack(let index):
                let item = try requireNode(owner).stack[index]
                guard item.presentation == .push else { throw NavigationError.cannotGoBack }
                try checkLeave(owner: owner, item: item, gesture: .back)
                truncateStack(owner, from: index)
                return owner
            case .root, .tab:
                _ = try requireNode(owner)
                guard case (let parent, let hostSlot?)? = place(of: owner) else { throw NavigationError.cannotGoBack }
                owner = parent
                slot = hostSlot
            }
        }
    }

    /// Removes the top-most modal or full-screen item with everything above it.
    func dismissModal() throws -> NodeID {
        let entries = visibleEntries()
        try refuseUnderAlert(entries)
        guard let modal = entries.last(where: { $0.entry.presentation?.isPresentation == true }),
            case .stack(let index) = modal.slot
        else { throw NavigationError.noModal }
        guard modal.entry.presentation != .fullScreen else {
            throw NavigationError.notSwipeDismissible(route: modal.entry.route)
        }
        guard modal.entry.dismissible else { throw NavigationError.notDismissible(route: modal.entry.route) }
        try checkLeave(owner: modal.owner, item: modal.entry, gesture: .dismissModal)
        truncateStack(modal.owner, from: index)
        return modal.owner
    }

    /// Taps a tab of the tab coordinator nearest the visible screen that has it.
    func selectTab(_ route: String) throws -> NodeID {
        let entries = visibleEntries()
        try refuseUnderAlert(entries)
        // Only the tab bars above the top-most sheet or cover can be touched.
        let cover = entries.lastIndex { $0.entry.presentation?.isPresentation == true }
        let touchable = cover.map { entries[($0 + 1)...] } ?? entries[...]
        let tabNodes = touchable.reversed().map(\.owner).filter { storage.nodes[$0]?.kind == .tab }
        if let cover, !tabNodes.contains(where: { hasTab($0, route) }),
            entries[..<cover].contains(where: { storage.nodes[$0.owner]?.kind == .tab })
        {
            let modal = entries[cover].entry
            throw NavigationError.tabBarCovered(by: modal.route, presentation: modal.presentation ?? .modal)
        }
        guard let nodeID = tabNodes.first(where: { hasTab($0, route) }) else {
            guard let nearest = tabNodes.first, let node = storage.nodes[nearest] else {
                throw NavigationError.notATab(route, tabs: [])
            }
            let tabs = node.tabs.map(\.route)
            if try table(of: nearest).routes[route] == nil {
                throw NavigationError.unknownRoute(route, in: node.typeName, choices: tabs)
            }
            throw NavigationError.notATab(route, tabs: tabs)
        }
        return try selectTabGesture(nodeID, route)
    }

    private func hasTab(_ nodeID: NodeID, _ route: String) -> Bool {
        storage.nodes[nodeID]?.tabs.contains { $0.route == route } ?? false
    }

    /// Refuses a gesture while an alert is shown on the visible path.
    private func refuseUnderAlert(_ entries: [VisibleEntry]) throws {
        for entry in entries {
            if let alert = storage.nodes[entry.owner]?.alert { throw NavigationError.alertShown(title: alert.title) }
            if let child = entry.entry.content.nodeID, let alert = storage.nodes[child]?.alert {
                throw NavigationError.alertShown(title: alert.title)
            }
        }
    }

    private func checkLeave(owner: NodeID, item: EntryState, gesture: Gesture) throws {
        let coordinator = try storage.coordinator(owner)
        if case .refuse(let reason) = coordinator.shouldLeave(
            route: item.route, item: item.id.description, gesture: gesture)
        {
            throw NavigationError.vetoed(route: item.route, reason: reason)
        }
    }
}
