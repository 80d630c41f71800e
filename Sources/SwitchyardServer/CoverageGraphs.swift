import Foundation
import Switchyard
import SwitchyardExplorer
import SwitchyardSessions
import Synchronization

/// The explored graphs traffic coverage compares stored sessions with, one per app version, explored once
/// (``AppExplorer``, within ``limits``) and kept while the version is served, until the configured apps are reloaded.
///
/// An exploration takes seconds: the API does not wait for one (``readyGraph(of:)`` starts it on a thread of its
/// own and answers 503 until it is done); `switchyard stats` does (``graph(of:)``).
package final class CoverageGraphs: Sendable {
    /// The bounds of each exploration.
    package let limits: ExplorationLimits
    private let state = Mutex(Known())

    /// The graphs explored, those being explored, and how many times the apps were reloaded (a graph explored
    /// before a reload is not kept).
    private struct Known {
        var graphs: [AppVersion: Result<CoverageGraph, AnalyticsRefusal>] = [:]
        var exploring: Set<AppVersion> = []
        var generation = 0
    }

    /// No graph explored yet.
    package init(limits: ExplorationLimits) {
        self.limits = limits
    }

    /// The graph of `app`: each explored transition as (visible path, ``ActionSignature``, visible path), explored
    /// now when not known yet.
    package func graph(of app: NavigationApp) throws(AnalyticsRefusal) -> CoverageGraph {
        let (known, generation) = state.withLock { ($0.graphs[app.identity], $0.generation) }
        if let known { return try known.get() }
        let result = explore(app)
        state.withLock { if $0.generation == generation { $0.graphs[app.identity] = result } }
        return try result.get()
    }

    /// The graph of `app` when it is known; otherwise its exploration is started (once) on a thread of its own and
    /// this throws ``AnalyticsRefusal/notReady(_:retryAfter:)``.
    package func readyGraph(of app: NavigationApp) throws(AnalyticsRefusal) -> CoverageGraph {
        let (known, start, generation) = state.withLock {
            state -> (Result<CoverageGraph, AnalyticsRefusal>?, Bool, Int) in
            if let known = state.graphs[app.identity] { return (known, false, state.generation) }
            return (nil, state.exploring.insert(app.identity).inserted, state.generation)
        }
        if let known { return try known.get() }
        if start {
            Thread.detachNewThread { [self] in
                let result = explore(app)
                state.withLock {
                    if $0.generation == generation { $0.graphs[app.identity] = result }
                    $0.exploring.remove(app.identity)
                }
            }
        }
        throw .notReady(
            "\(app.identity)'s graph is being explored (at most \(Int(limits.seconds)) s); ask again shortly",
            retryAfter: 2)
    }

    /// Keeps the graphs of the versions in `served` only (a release changed what is served). A published version
    /// always means the same definition, so its graph stays right while it is served.
    package func retain(_ served: Set<AppVersion>) {
        state.withLock { $0.graphs = $0.graphs.filter { served.contains($0.key) } }
    }

    /// Forgets every graph (the configured apps were reloaded: a version may now mean another definition); one
    /// being explored is not kept when done.
    package func forget() {
        state.withLock {
            $0.graphs = [:]
            $0.generation += 1
        }
    }

    private func explore(_ app: NavigationApp) -> Result<CoverageGraph, AnalyticsRefusal> {
        do {
            return .success(Self.graph(of: try AppExplorer(app: app, limits: limits).explore()))
        } catch {
            return .failure(.invalid("\(app.identity) cannot be explored: its first state fails: \(error)"))
        }
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
