/// Flow events: the sender's coordinator handles first, then each parent, until one returns true.
extension NavigationEngine {
    /// Sends a flow event from an item (screen) or coordinator id, as one transaction.
    ///
    /// A handled event always commits a new version (handlers may change what screens show without moving the tree).
    ///
    /// - Returns: The node id of the coordinator that handled it.
    /// - Throws: ``NavigationError/eventNotHandled(_:declared:)`` (nothing changes) if no coordinator up to the root handled it.
    @discardableResult
    public func send(_ event: FlowEvent, from sender: NodeID) throws -> NodeID {
        try send(event, from: sender.description)
    }

    /// Sends a flow event from an item or coordinator named on the wire (`i7`, `n3`).
    @discardableResult
    public func send(_ event: FlowEvent, from sender: String) throws -> NodeID {
        try transaction {
            let start: NodeID
            if let node = NodeID(sender), storage.nodes[node] != nil {
                start = node
            } else if let item = ItemID(sender), let owner = owner(of: item) {
                start = owner
            } else {
                throw NavigationError.itemNotFound(sender)
            }
            var event = event
            event.sender = sender
            guard let handler = try deliver(event, from: start) else {
                throw NavigationError.eventNotHandled(event.name, declared: declaredEvents(from: start))
            }
            // A handled event is a committed change even when the tree did not move: its handlers may have changed
            // the app data that screens render (a favourite toggled), and watchers must see that.
            markChanged()
            return handler
        }
    }

    /// The names of the events the coordinators from `nodeID` up to the root declare, sorted, each once.
    func declaredEvents(from nodeID: NodeID) -> [String] {
        var names: Set<String> = []
        var current: NodeID? = nodeID
        while let id = current, let node = storage.nodes[id] {
            names.formUnion(node.coordinator.declaredEvents.map(\.name))
            current = node.parent
        }
        return names.sorted()
    }

    /// Offers the event to `nodeID` and its parents; returns who handled it. Inside a transaction.
    func deliver(_ event: FlowEvent, from nodeID: NodeID) throws -> NodeID? {
        var current: NodeID? = nodeID
        while let id = current, let node = storage.nodes[id] {
            if try node.coordinator.handle(event) { return id }
            current = node.parent
        }
        return nil
    }
}
