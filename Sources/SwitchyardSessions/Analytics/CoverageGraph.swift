/// The transitions an exploration found (`switchyard explore`), as traffic coverage compares stored sessions with
/// them: each by the visible path before, what the request asked (``ActionSignature``) and the visible path after.
///
/// Several explored transitions may have one such key (states of one visible path told apart by their tree or
/// their data): they are one transition here, since a stored history keeps only the visible path.
public struct CoverageGraph: Sendable {
    /// A transition: from a visible path, by an action, to a visible path.
    public struct Edge: Sendable, Hashable {
        /// The visible path before.
        public let from: [String]
        /// What the request asked (``ActionSignature``).
        public let action: String
        /// The visible path after.
        public let to: [String]

        /// An edge.
        public init(from: [String], action: String, to: [String]) {
            self.from = from
            self.action = action
            self.to = to
        }
    }

    /// The transitions, each once, in the order found.
    public let edges: [Edge]
    /// How many transitions the exploration found (before they were keyed by visible path).
    public let explored: Int
    /// What bounded the exploration (`20000 states`), in words: the graph may lack transitions then.
    public let limitsReached: [String]

    /// A graph of `edges` (repeated ones kept once), out of `explored` explored transitions.
    public init(edges: [Edge], explored: Int, limitsReached: [String] = []) {
        var seen = Set<Edge>()
        self.edges = edges.filter { seen.insert($0).inserted }
        self.explored = explored
        self.limitsReached = limitsReached
    }

    /// The graphs of several app versions as one.
    public static func merging(_ graphs: [CoverageGraph]) -> CoverageGraph {
        CoverageGraph(
            edges: graphs.flatMap(\.edges), explored: graphs.reduce(0) { $0 + $1.explored },
            limitsReached: graphs.flatMap(\.limitsReached))
    }
}
