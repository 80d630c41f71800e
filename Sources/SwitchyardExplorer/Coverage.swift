/// Which transitions of an explored graph a suite has taken so far, and the way from a state to the nearest one it
/// has not: what ``TestSuite`` asks after every step, so each answer costs at most one breadth-first pass over the
/// graph (states and transitions in arrays, a count of uncovered transitions per state, no set copied).
///
/// A way is only worth going when it is shorter than starting again: a new session reaches the uncovered transition
/// nearest the start in its depth plus one step, so a way from where a case is must be shorter than that.
struct Coverage {
    private let graph: ExploredGraph
    /// The transitions, those leaving states nearest the start first: the order new cases start in.
    let byDepth: [Int]
    /// The first of `byDepth` that may be uncovered.
    private var next = 0
    /// The transitions leaving each state.
    private let leaving: [[Int]]
    /// Whether each edge has been taken (indexed like the graph's edges).
    private var covered: [Bool]
    /// How many transitions leaving each state are not covered yet.
    private var open: [Int]
    /// Per state, the pass that last reached it (so passes need no clearing) and the transition it reached it by.
    private var seenIn: [Int]
    private var arrivedBy: [Int]
    private var distance: [Int]
    private var pass = 0

    init(_ graph: ExploredGraph, transitions: [Int]) {
        self.graph = graph
        var leaving = Array(repeating: [Int](), count: graph.states.count)
        for transition in transitions { leaving[graph.edges[transition].from].append(transition) }
        self.leaving = leaving
        byDepth = transitions.sorted {
            graph.states[graph.edges[$0].from].depth < graph.states[graph.edges[$1].from].depth
        }
        covered = Array(repeating: false, count: graph.edges.count)
        open = leaving.map(\.count)
        seenIn = Array(repeating: 0, count: graph.states.count)
        arrivedBy = Array(repeating: -1, count: graph.states.count)
        distance = Array(repeating: 0, count: graph.states.count)
    }

    /// The uncovered transition nearest the start (by its state's depth), nil when all are covered.
    mutating func nearestToStart() -> Int? {
        while next < byDepth.count, covered[byDepth[next]] { next += 1 }
        return next < byDepth.count ? byDepth[next] : nil
    }

    func isCovered(_ transition: Int) -> Bool { covered[transition] }

    /// Marks `transition` as one no case goes for again: a case started for it did not take it as the exploration
    /// did (so the next case does not start for it again and again).
    mutating func abandon(_ transition: Int) { cover(transition) }

    mutating func cover(_ transition: Int) {
        guard !covered[transition] else { return }
        covered[transition] = true
        open[graph.edges[transition].from] -= 1
    }

    /// The transitions from `state` to the nearest uncovered transition not in `avoiding`, that transition last;
    /// empty when none is reachable in fewer steps than a new session needs for one.
    mutating func wayToNearestUncovered(from state: Int, avoiding: Set<Int>) -> [Int] {
        guard let first = nearestToStart() else { return [] }
        // A way of `longest` steps or fewer (the last one the uncovered transition) beats starting again.
        let longest = graph.states[graph.edges[first].from].depth
        pass += 1
        seenIn[state] = pass
        arrivedBy[state] = -1
        distance[state] = 0
        var queue = [state]
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            if open[current] > 0,
                let uncovered = leaving[current].first(where: { !covered[$0] && !avoiding.contains($0) })
            {
                var way = [uncovered]
                var at = current
                while arrivedBy[at] >= 0 {
                    way.append(arrivedBy[at])
                    at = graph.edges[arrivedBy[at]].from
                }
                return way.reversed()
            }
            guard distance[current] + 1 < longest else { continue }
            for edge in leaving[current] where !avoiding.contains(edge) {
                guard let target = graph.edges[edge].target, seenIn[target] != pass else { continue }
                seenIn[target] = pass
                arrivedBy[target] = edge
                distance[target] = distance[current] + 1
                queue.append(target)
            }
        }
        return []
    }
}
