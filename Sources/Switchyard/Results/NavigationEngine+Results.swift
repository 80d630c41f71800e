/// Results back to the caller: `finish`, and the delivery of outcomes to openers. Only called inside a transaction.
extension NavigationEngine {
    /// Ends what the coordinator shows on top with `result`: its top stack item when it has one, else the coordinator
    /// itself in its parent's stack. The item's route must produce a result (``ProducesResult``) of the type
    /// `result` decodes as, and someone must wait for it. Continues in the opener.
    func finish(_ nodeID: NodeID, result: JSONValue) throws -> NodeID {
        let node = try requireNode(nodeID)
        let (owner, index) = try finishingItem(of: node)
        let entry = try requireNode(owner).stack[index]
        let transition = try transition(of: owner, named: entry.route, kinds: [.route])
        guard let type = transition.resultType else {
            throw NavigationError.noResultExpected(route: entry.route, output: transition.outputTypeName)
        }
        guard storage.resultCallbacks[entry.id] != nil || transition.resultHandler != nil else {
            throw NavigationError.resultNotAwaited(route: entry.route)
        }
        let value: any Sendable
        do {
            value = try type.decode(result)
        } catch {
            throw NavigationError.invalidResult(
                route: entry.route, expected: type.name, reason: RouteInput.describe(error))
        }
        journal?.finishing[entry.id] = .finished(value)
        truncateStack(owner, from: index)
        return owner
    }

    /// The item `finish` ends: the node's top stack item, or the stack item hosting the node.
    private func finishingItem(of node: NodeState) throws -> (owner: NodeID, index: Int) {
        if !node.stack.isEmpty { return (node.id, node.stack.count - 1) }
        guard case (let parentID, .stack(let index)?)? = place(of: node.id) else {
            throw NavigationError.nothingToFinish(node.typeName)
        }
        return (parentID, index)
    }

    /// Queues the outcome of an item that is leaving the tree for its opener: the value it is finishing with, or
    /// cancelled.
    func queueOutcome(of entry: EntryState, owner: NodeID) {
        let outcome = journal?.finishing.removeValue(forKey: entry.id) ?? .cancelled
        var callback: ((DeliveredOutcome) throws -> Void)?
        if storage.resultCallbacks[entry.id] != nil { callback = storage.resultCallbacks.removeValue(forKey: entry.id) }
        guard let opener = storage.nodes[owner]?.coordinator else { return }
        journal?.deliveries.append(
            ResultDelivery(
                item: entry.id, opener: opener, owner: owner, route: entry.route, outcome: outcome, callback: callback))
    }

    /// Hands every queued outcome to its opener, in order (a handler may queue more), while the transaction is still
    /// open: what the handlers do commits with it, and an error they throw rolls it all back. An opener that left
    /// the tree in the same transaction hears nothing, and neither does one whose item came back in it (a restore
    /// that rebuilt the same tree).
    func deliverOutcomes() throws {
        while let first = journal?.deliveries.first {
            journal?.deliveries.removeFirst()
            // Only a restore gives an id back: the tree is searched for the item only then.
            let cameBack = journal?.restored == true && owner(of: first.item) != nil
            guard !cameBack, let opener = storage.nodes[first.owner]?.coordinator,
                opener === first.opener
            else { continue }
            if let callback = first.callback {
                try callback(first.outcome)
            } else if let handler = try table(of: first.owner).routes[first.route]?.resultHandler {
                try handler(opener, first.outcome)
            }
            markChanged()
        }
    }
}
