/// Tab operations by name. Only called inside a transaction.
extension NavigationEngine {
    /// Selects the first tab with that route (and input, if given) and continues in its content.
    /// Focusing the selected tab changes nothing.
    func focusTab(_ nodeID: NodeID, _ route: String, input: JSONValue? = nil) throws -> NodeID {
        let node = try requireNode(nodeID)
        try require(node, kinds: [.tab], for: "focus")
        let routes = node.tabs.map(\.route)
        guard
            let index = node.tabs.firstIndex(where: {
                $0.route == route && (input == nil || $0.input == input)
            })
        else {
            if try table(of: nodeID).routes[route] == nil {
                throw NavigationError.unknownRoute(route, in: node.typeName, choices: routes)
            }
            throw NavigationError.notATab(route, tabs: routes)
        }
        if node.selectedTab != index {
            try storage.modify(nodeID) { $0.selectedTab = index }
            markChanged()
        }
        return landing(node.tabs[index], owner: nodeID)
    }

    /// Appends a tab made by a `@TabRoute`, optionally selecting it.
    func addTab(_ nodeID: NodeID, _ route: String, input: JSONValue?, select: Bool) throws -> NodeID {
        let node = try requireNode(nodeID)
        try require(node, kinds: [.tab], for: "addTab")
        let entry = try makeEntry(
            owner: nodeID, route: route, kinds: [.tab], input: input, presentation: nil, animated: true)
        try storage.modify(nodeID) { $0.tabs.append(entry) }
        if select { try storage.modify(nodeID) { $0.selectedTab = node.tabs.count } }
        return select ? landing(entry, owner: nodeID) : nodeID
    }

    /// Removes a tab (by item id); the last tab cannot be removed.
    func removeTab(_ nodeID: NodeID, item: ItemID) throws -> NodeID {
        let node = try requireNode(nodeID)
        try require(node, kinds: [.tab], for: "removeTab")
        guard let index = node.tabs.firstIndex(where: { $0.id == item }) else {
            throw NavigationError.itemNotFound(item.description)
        }
        guard node.tabs.count > 1 else { throw NavigationError.cannotRemoveLastTab }
        discard(node.tabs[index], of: nodeID)
        try storage.modify(nodeID) { $0.tabs.remove(at: index) }
        var selected = node.selectedTab
        if index < selected || (index == selected && selected == node.tabs.count - 1) { selected -= 1 }
        try storage.modify(nodeID) { $0.selectedTab = max(0, selected) }
        return nodeID
    }

    /// The user tapped a tab: select it, or call the re-selection hook if it is already selected.
    func selectTabGesture(_ nodeID: NodeID, _ route: String) throws -> NodeID {
        let node = try requireNode(nodeID)
        let routes = node.tabs.map(\.route)
        guard let index = node.tabs.firstIndex(where: { $0.route == route }) else {
            throw NavigationError.notATab(route, tabs: routes)
        }
        if index == node.selectedTab, let tabs = node.coordinator as? any TabCoordinatable {
            try tabs.didReselectTab(route)
            return landing(node.tabs[index], owner: nodeID)
        }
        return try focusTab(nodeID, route)
    }
}
