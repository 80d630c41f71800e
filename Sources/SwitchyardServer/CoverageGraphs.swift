import Switchyard
import SwitchyardExplorer
import SwitchyardSessions
import Synchronization

/// The explored graphs traffic coverage compares stored sessions with, one per app version, explored once
/// (``AppExplorer``, within ``limits``) and kept until the apps are reloaded.
package final class CoverageGraphs: Sendable {
    /// The bounds of each exploration.
    package let limits: ExplorationLimits
    private let cache = Mutex<[AppVersion: CoverageGraph]>([:])

    /// No graph explored yet.
    package init(limits: ExplorationLimits) {
        self.limits = limits
    }

    /// The graph of `app`: each explored transition as (visible path, ``ActionSignature``, visible path).
    package func graph(of app: NavigationApp) throws(AnalyticsRefusal) -> CoverageGraph {
        if let known = cache.withLock({ $0[app.identity] }) { return known }
        let explored: ExploredGraph
        do {
            explored = try AppExplorer(app: app, limits: limits).explore()
        } catch {
            throw .invalid("\(app.identity) cannot be explored: its first state fails: \(error)")
        }
        let graph = Self.graph(of: explored)
        cache.withLock { $0[app.identity] = graph }
        return graph
    }

    /// Forgets every graph (the apps were reloaded).
    package func forget() {
        cache.withLock { $0 = [:] }
    }

    /// `explored`'s transitions keyed as traffic is.
    package static func graph(of explored: ExploredGraph) -> CoverageGraph {
        let transitions = explored.transitions
        let edges = transitions.compactMap { index -> CoverageGraph.Edge? in
            let edge = explored.edges[index]
            guard let target = edge.target,
                let action = ActionSignature.of(endpoint: edge.action.endpoint, body: edge.action.body)
            else { return nil }
            return CoverageGraph.Edge(
                from: explored.states[edge.from].visiblePath, action: action, to: explored.states[target].visiblePath)
        }
        return CoverageGraph(edges: edges, explored: transitions.count, limitsReached: explored.limitsReached)
    }
}
