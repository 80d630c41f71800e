/// What an exploration of the app's graph (module `SwitchyardExplorer`) reads of a state: its shape, how its guards
/// decide, and the routes each coordinator on screen could open.
extension NavigationEngine {
    /// A route a coordinator on screen can open, with the step that opens it as declared.
    package struct OpenableRoute {
        /// The coordinator's node and type.
        package let owner: NodeID
        package let ownerType: String
        package let route: String
        /// The step a client sends for it: `root` for a root route, `focus` for a tab, `push` or `present` for the
        /// rest (as declared); with no input yet.
        package let step: Step
        /// The input's type name (`String`, `string`), nil when the route takes none.
        package let inputType: String?
    }

    /// The state's shape, without ids, inputs or data: along what is on screen, each coordinator's type, its root
    /// (or selected tab), its top entry and whether others lie beneath it, an alert shown; and the deep link and
    /// route pending. Two states with one shape look and navigate alike (for routes whose guards decide alike:
    /// ``guardDecisions()``); what background tabs hold is not part of it.
    ///
    /// So that apps whose stacks grow without end (a screen pushing itself) or whose coordinators present their own
    /// type again have finite graphs, a stack counts by its top entry (and whether it holds more), and a
    /// coordinator inside two of its own type counts only by its type.
    package func shapeKey() -> String {
        var key = ""
        appendShape(storage.rootNode, ancestors: [], into: &key)
        if let link = storage.pendingDeepLink { key += "|link:" + link }
        if let route = storage.pendingRoute { key += "|pending:" + route.ownerType + "." + route.route }
        return key
    }

    private func appendShape(_ nodeID: NodeID, ancestors: [String], into key: inout String) {
        guard let node = storage.nodes[nodeID] else { return }
        guard ancestors.count(where: { $0 == node.typeName }) < 2 else {
            key += "~" + node.typeName
            return
        }
        let ancestors = ancestors + [node.typeName]
        func name(_ entry: EntryState) -> String {
            entry.route + (entry.presentation.map { $0 == .push ? "" : "^" + $0.rawValue } ?? "")
        }
        key += node.typeName + "{"
        if let base = node.baseEntry {
            key += (node.kind == .tab ? "tab:" : "") + name(base)
            if let child = base.content.nodeID { appendShape(child, ancestors: ancestors, into: &key) }
        }
        if let top = node.stack.last {
            key += (node.stack.count > 1 ? "|…" : "|") + name(top)
            if let child = top.content.nodeID { appendShape(child, ancestors: ancestors, into: &key) }
        }
        if let alert = node.alert { key += "!alert:" + alert.title }
        key += "}"
    }

    /// How each guard of each coordinator type in the tree would decide now (allow, refuse with its code,
    /// redirect): states of one shape whose guards decide alike open the same routes.
    package func guardDecisions() -> String {
        var decisions: Set<String> = []
        for nodeID in nodesInTreeOrder() {
            guard let node = storage.nodes[nodeID] else { continue }
            let (coordinator, table) = (node.coordinator, node.table)
            for name in table.order {
                guard let check = table.routes[name]?.guardCheck else { continue }
                let decision =
                    switch check(coordinator) {
                    case .allow: "+"
                    case .refuse(let code, _): "-" + code
                    case .redirect: ">"
                    }
                decisions.insert(table.typeName + "." + name + decision)
            }
        }
        return decisions.sorted().joined(separator: ",")
    }

    /// The coordinators from the root down to the one owning the top-most visible screen.
    package var visibleCoordinators: [NodeID] {
        var chain: [NodeID] = []
        for entry in visibleEntries() where chain.last != entry.owner { chain.append(entry.owner) }
        return chain
    }

    /// The routes `node`'s coordinator declares, each with the step that opens it.
    package func openableRoutes(of nodeID: NodeID) -> [OpenableRoute] {
        guard let node = storage.nodes[nodeID] else { return [] }
        let table = node.table
        return table.order.compactMap { name in
            guard let transition = table.routes[name] else { return nil }
            let step: Step.Operation =
                switch transition.kind {
                case .root: .root(route: name)
                case .tab: .focus(route: name)
                case .route:
                    transition.style.presentation == .push
                        ? .push(route: name) : .present(route: name, presentation: nil)
                }
            return OpenableRoute(
                owner: nodeID, ownerType: node.typeName, route: name, step: Step(step),
                inputType: transition.inputTypeName)
        }
    }

    /// The flow events `node`'s coordinator declares.
    package func declaredEvents(of nodeID: NodeID) -> [FlowEventDeclaration] {
        storage.nodes[nodeID]?.coordinator.declaredEvents ?? []
    }

    /// Every entry of the tree as its coordinator's type and route: the routes this state has entered.
    package func enteredRoutes() -> [(ownerType: String, route: String)] {
        nodesInTreeOrder().flatMap { nodeID -> [(ownerType: String, route: String)] in
            guard let node = storage.nodes[nodeID] else { return [] }
            return node.entries.map { (node.typeName, $0.route) }
        }
    }

    /// The top-most visible entry as its coordinator's type and route.
    package var visibleTop: (ownerType: String, route: String)? {
        guard let top = visibleEntries().last, let node = storage.nodes[top.owner] else { return nil }
        return (node.typeName, top.entry.route)
    }

    /// Whether the app's coordinators are declared as data (module `SwitchyardDefinitions`), so that places are
    /// JSON Pointers into the definition rather than Swift types.
    package var isDefinedAsData: Bool {
        storage.nodes[storage.rootNode]?.coordinator is any DynamicCoordinator
    }

    /// Every coordinator of the tree, parents before children.
    private func nodesInTreeOrder() -> [NodeID] {
        var order: [NodeID] = []
        var queue = [storage.rootNode]
        while let next = queue.popLast() {
            order.append(next)
            guard let node = storage.nodes[next] else { continue }
            queue += node.entries.compactMap(\.content.nodeID).reversed()
        }
        return order
    }
}
