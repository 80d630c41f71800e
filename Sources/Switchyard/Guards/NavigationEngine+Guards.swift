/// Route guards: asked when an entry is made, followed on redirect, and the pending route resumed.
extension NavigationEngine {
    /// How many redirects one operation may follow before it is refused as a loop.
    static let redirectLimit = 8

    /// Asks the route's guard, if any, whether an entry for it may be made now; allowed, the route is no longer
    /// pending (entered directly, it does not open a second time). Inside a transaction.
    func checkGuard(
        _ transition: AnyTransition, owner: NodeID, route: String, input: JSONValue?, presentation: Presentation?
    ) throws {
        guard checksGuards, let guardCheck = transition.guardCheck else { return }
        switch guardCheck(try storage.coordinator(owner)) {
        case .allow:
            // Entered now (by whatever operation): it no longer waits.
            if let pending = storage.pendingRoute, pending.route == route,
                pending.ownerType == storage.nodes[owner]?.typeName, pending.ownerPath == routePath(to: owner)
            {
                storage.pendingRoute = nil
            }
        case .refuse(let code, let message):
            throw NavigationError.guardRefused(code: code, message: message)
        case .redirect(let steps):
            let ownerType = try requireNode(owner).typeName
            throw GuardRedirect(
                target: PendingRoute(
                    ownerPath: routePath(to: owner), ownerType: ownerType, route: route,
                    input: input == .null ? nil : input, presentation: presentation ?? .push),
                steps: steps)
        }
    }

    /// Follows a redirect as a change of its own (the operation it replaced was rolled back): its steps from the
    /// root coordinator, and the route kept as pending. A redirect met on the way is followed in its place, unless
    /// it comes back to a guard already met (or there are too many): then nothing changes and the loop is refused.
    /// - Throws: ``NavigationError/redirected(_:to:)`` once the redirect committed, as the operation did not do
    ///   what it was asked to (``collectingCommits(_:)`` ends with ``CommitRun/Ending/redirected(_:)``).
    func follow(_ first: GuardRedirect) throws -> Never {
        var chain = [first.label]
        var redirect = first
        defer { commitRedirect = nil }
        while true {
            do {
                try transaction(followingRedirects: false) {
                    commitRedirect = first.target  // the commit, if any, says it is this route's redirect
                    let waiting = storage.pendingRoute
                    var current = storage.rootNode
                    for step in redirect.steps { current = try apply(step, at: current) }
                    storage.pendingRoute = first.target
                    // A redirect that leads where the session is, to the route already pending, changes nothing:
                    // no version (a client retrying the refused step would otherwise make one each time).
                    if storage.pendingRoute != waiting { markChanged() }
                }
            } catch let next as GuardRedirect {
                chain.append(next.label)
                guard chain.count <= Self.redirectLimit, !chain.dropLast().contains(next.label) else {
                    throw NavigationError.redirectLoop(chain)
                }
                redirect = next
                continue
            }
            throw NavigationError.redirected(first.target, to: visiblePath)
        }
    }

    /// Enters the pending route in a change of its own if its guard allows it now (and shows it: the tabs on the
    /// way are selected). It stays pending while its owner is not in the tree or the guard still redirects; it is
    /// dropped when the guard refuses or the route can no longer be entered for another reason.
    func resumePendingRoute() {
        guard let pending = storage.pendingRoute else { return }
        let cause = commitCause
        resumingRoute = true
        commitCause = .pendingRoute
        defer {
            resumingRoute = false
            commitCause = cause
        }
        do {
            try transaction(followingRedirects: false) {
                guard let owner = node(at: pending.ownerPath), storage.nodes[owner]?.typeName == pending.ownerType
                else { throw PendingRouteWaits() }
                storage.pendingRoute = nil
                markChanged()
                try enter(pending, at: owner)  // asks the guard (once)
                try reveal(owner)
            }
        } catch is PendingRouteWaits, is GuardRedirect {
            // Still waiting: nothing changed.
        } catch  where refusedByCommitCheck {
            // The owner refused the result (e.g. over a size limit): keep the route for a later change.
        } catch {
            try? transaction {
                storage.pendingRoute = nil
                markChanged()
            }
        }
    }

    /// Makes the entry the pending route was going to be.
    private func enter(_ pending: PendingRoute, at owner: NodeID) throws {
        if pending.presentation == .push {
            _ = try push(owner, pending.route, input: pending.input, animated: true)
        } else {
            _ = try present(
                owner, pending.route, input: pending.input, presentation: pending.presentation, animated: true)
        }
    }

    /// Selects, in every tab coordinator above `nodeID`, the tab that leads to it.
    private func reveal(_ nodeID: NodeID) throws {
        var current = nodeID
        while let (parentID, slot) = place(of: current) {
            if case .tab(let index)? = slot, storage.nodes[parentID]?.selectedTab != index {
                try storage.modify(parentID) { $0.selectedTab = index }
                markChanged()
            }
            current = parentID
        }
    }

    /// The routes of the entries hosting each coordinator from the root down to `nodeID`.
    func routePath(to nodeID: NodeID) -> [String] {
        var path: [String] = []
        var current = nodeID
        while let (parentID, slot) = place(of: current) {
            if let slot, let entry = storage.nodes[parentID]?.entry(slot) { path.append(entry.route) }
            current = parentID
        }
        return path.reversed()
    }

    /// The coordinator a route path leads to from the root (the top-most stack entry when a route is stacked twice).
    func node(at path: [String]) -> NodeID? {
        var current = storage.rootNode
        for route in path {
            guard let node = storage.nodes[current] else { return nil }
            let entries = Array(node.stack.reversed()) + node.tabs + [node.root].compactMap { $0 }
            guard let next = entries.first(where: { $0.route == route })?.content.nodeID else { return nil }
            current = next
        }
        return current
    }

    /// Refuses a restored tree that shows a route whose guard does not allow it now (redirects count as refusals:
    /// a restore does not navigate elsewhere). Inside the restore's transaction.
    func checkRestoredGuards(_ nodeID: NodeID) throws {
        guard let node = storage.nodes[nodeID] else { return }
        for entry in node.entries {
            let transition = try transition(of: nodeID, named: entry.route, kinds: [.root, .route, .tab])
            if let guardCheck = transition.guardCheck {
                switch guardCheck(try storage.coordinator(nodeID)) {
                case .allow: break
                case .refuse(_, let message): throw NavigationError.restoreGuarded(route: entry.route, reason: message)
                case .redirect:
                    throw NavigationError.restoreGuarded(route: entry.route, reason: "its guard redirects elsewhere")
                }
            }
            if let child = entry.content.nodeID { try checkRestoredGuards(child) }
        }
    }
}

/// The pending route's guard still says no (or its owner is not in the tree yet).
struct PendingRouteWaits: Error {}
