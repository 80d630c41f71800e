/// Counts which transitions of an explored graph the stored sessions took, one journey at a time (``count(_:)``),
/// and the sessions that showed each screen: coverage from real traffic, and the map's heat layer.
///
/// A change of a journey is matched to an edge when it directly follows the version before (nothing trimmed or
/// cut between) and its visible path before, its ``Journey/Step/action`` and its visible path after are the
/// edge's. Changes no client asked for as such (a guard's redirect, a restore, a migration) are not transitions;
/// they move the path the next change starts from. A change that matches no edge is an unexplored transition.
public struct TrafficCoverage: Sendable {
    /// The graph compared with.
    public let graph: CoverageGraph
    /// Only journeys that complete this funnel are counted (nil: every journey).
    private let funnel: Funnel?
    private var edgeIndex: [CoverageGraph.Edge: Int] = [:]
    private var taken: [Int]
    private var sessions: [Int]
    private var unexplored: [CoverageGraph.Edge: (taken: Int, sessions: Int)] = [:]
    private var screens: [String: Int] = [:]
    private var journeys = 0
    private var changes = 0
    private var notTransitions = 0

    /// A count of the transitions of `graph`, of the journeys that complete `funnel` (every journey when nil).
    public init(graph: CoverageGraph, funnel: Funnel? = nil) {
        self.graph = graph
        self.funnel = funnel
        for (index, edge) in graph.edges.enumerated() { edgeIndex[edge] = index }
        taken = Array(repeating: 0, count: graph.edges.count)
        sessions = taken
    }

    /// Counts `journey` (read with its actions: ``AnalyticsScan/readsActions``).
    public mutating func count(_ journey: Journey) {
        if let funnel, !funnel.completes(journey) { return }
        journeys += 1
        var seenEdges = Set<Int>()
        var seenUnexplored = Set<CoverageGraph.Edge>()
        var seenScreens = Set<String>()
        var previous: Journey.Step?
        for step in journey.steps {
            seenScreens.insert(step.screen)
            defer { previous = step }
            guard let before = previous, step.version == before.version + 1 else { continue }
            changes += 1
            guard let action = step.action else {
                notTransitions += 1
                continue
            }
            let edge = CoverageGraph.Edge(from: before.path, action: action, to: step.path)
            if let index = edgeIndex[edge] {
                taken[index] += 1
                if seenEdges.insert(index).inserted { sessions[index] += 1 }
            } else {
                let first = seenUnexplored.insert(edge).inserted
                let counted = unexplored[edge] ?? (0, 0)
                unexplored[edge] = (counted.taken + 1, counted.sessions + (first ? 1 : 0))
            }
        }
        for screen in seenScreens { screens[screen, default: 0] += 1 }
    }

    /// What was counted, with `notes` on how it was read.
    public func report(notes: [String] = []) -> CoverageReport {
        var notes = notes
        if journeys == 0 { notes.append("no stored session matches the filters") }
        if !graph.limitsReached.isEmpty {
            notes.append(
                "the exploration stopped at \(graph.limitsReached.joined(separator: ", ")): the graph may lack "
                    + "transitions")
        }
        if notTransitions > 0 {
            notes.append(
                "\(notTransitions) changes were no client's request (a guard's redirect, a restore, a migration, a "
                    + "pending deep link) or kept no whole request: not counted as transitions")
        }
        let rows = graph.edges.indices.map { index in
            CoverageReport.Transition(edge: graph.edges[index], taken: taken[index], sessions: sessions[index])
        }
        let order = { (a: CoverageReport.Transition, b: CoverageReport.Transition) in
            (b.taken, a.edge.from.joined(separator: "/"), a.edge.action)
                < (a.taken, b.edge.from.joined(separator: "/"), b.edge.action)
        }
        return CoverageReport(
            sessions: journeys, changes: changes, explored: graph.explored,
            transitions: rows.sorted(by: order),
            unexplored: unexplored.map {
                CoverageReport.Transition(edge: $0.key, taken: $0.value.taken, sessions: $0.value.sessions)
            }
            .sorted(by: order),
            screens: screens.map { CoverageReport.Screen(screen: $0.key, sessions: $0.value) }
                .sorted { ($1.sessions, $0.screen) < ($0.sessions, $1.screen) },
            notes: notes)
    }
}
