import Switchyard

/// Action sequences that together take every transition of an explored graph at least once (edge coverage), each
/// step with the visible path expected after it: what `switchyard paths` writes and `switchyard test` runs.
///
/// Each case starts a new session, goes to a state by its shortest way, takes a transition not yet covered from
/// there and goes on, from each state it reaches, by the shortest way to the nearest uncovered transition (as
/// GraphWalker's "quick random" does; transitions on the way count too) while that way is shorter than a new
/// session's way to one, up to 1,000 steps. The engine is deterministic: a server given the same requests from a new
/// session answers with the same paths.
public struct TestSuite: Sendable {
    /// One request of a case and what should follow.
    public struct Step: Sendable {
        public let label: String
        /// `transitions`, `events` or `deeplinks`.
        public let endpoint: String
        public let body: JSONValue
        /// The visible path after it.
        public let path: [String]
        /// Whether a guard redirects it (the answer is then a problem saying where the session went).
        public let redirected: Bool
        /// The transition it takes (its index in the explored graph's edges); nil for a step that takes the session
        /// to a state of another shape than in the exploration: a step of its case that covers nothing.
        public let transition: Int?
    }

    /// One session's steps.
    public struct Case: Sendable {
        public let name: String
        public let steps: [Step]
    }

    public let app: AppVersion
    /// How many transitions the explored graph has.
    public let transitions: Int
    public let cases: [Case]

    /// The suite that covers `graph`'s transitions, each case replayed on a new engine of `app` for the paths it
    /// expects: a state of the graph stands for every state of its shape, so the path after a step is the one the
    /// way there gives, which the replay finds. A case goes on from where it is only while each transition does
    /// what it did in the exploration.
    ///
    /// - Throws: What making the app's first engine throws.
    public init(_ graph: ExploredGraph, app: NavigationApp) throws {
        self.app = graph.app
        let all = graph.transitions
        transitions = all.count
        var index: [String: Int] = [:]
        for (state, value) in graph.states.enumerated() { index[value.key] = state }
        var coverage = Coverage(graph, transitions: all)
        var cases: [Case] = []
        while let transition = coverage.nearestToStart() {
            let engine = AppExplorer.checked(try app.makeEngine())
            var steps: [Step] = []
            var pending = graph.way(to: graph.edges[transition].from) + [transition]
            // Transitions that did something else in this session than in the exploration: not tried again in it.
            var astray = Set<Int>()
            while !pending.isEmpty, steps.count < Self.maxSteps {
                let edge = pending.removeFirst()
                switch Self.replay(edge, of: graph, on: engine, index: index) {
                case .taken(let step):
                    steps.append(step)
                    coverage.cover(edge)
                case .elsewhere(let step):
                    // A step to a state of another shape (the session's state differs from the one explored in what
                    // the shape leaves out): still a step of the case, with the path it gives, not a coverage.
                    steps.append(step)
                    astray.insert(edge)
                    pending = []
                case .refused:
                    astray.insert(edge)
                    pending = []
                }
                // Then on from the state reached: a transition left there, or the shortest way to the nearest
                // state that has one.
                if pending.isEmpty, let state = index[AppExplorer.key(of: engine)] {
                    pending = coverage.wayToNearestUncovered(from: state, avoiding: astray)
                }
            }
            if !coverage.isCovered(transition) { coverage.abandon(transition) }
            if !steps.isEmpty { cases.append(Case(name: steps.map(\.label).joined(separator: " → "), steps: steps)) }
        }
        self.cases = cases
    }

    /// The most steps of one case (one session).
    static let maxSteps = 1000

    /// What taking a transition in a replayed session did.
    private enum Replayed {
        /// What it did in the exploration.
        case taken(Step)
        /// Committed, to a state of another shape.
        case elsewhere(Step)
        /// Not committed (nothing changed).
        case refused
    }

    /// Takes `edge` on `engine`.
    private static func replay(
        _ edge: Int, of graph: ExploredGraph, on engine: NavigationEngine, index: [String: Int]
    ) -> Replayed {
        let taken = graph.edges[edge]
        guard case .moved(let target, let redirected) = taken.outcome,
            case .committed(let wasRedirected) = AppExplorer.run(taken.action, on: engine)
        else { return .refused }
        let same = wasRedirected == redirected && index[AppExplorer.key(of: engine)] == target
        let step = Step(
            label: taken.action.label, endpoint: taken.action.endpoint, body: taken.action.body,
            path: engine.visiblePath, redirected: wasRedirected, transition: same ? edge : nil)
        return same ? .taken(step) : .elsewhere(step)
    }

    init(app: AppVersion, transitions: Int, cases: [Case]) {
        self.app = app
        self.transitions = transitions
        self.cases = cases
    }
}
