import Switchyard

/// What an exploration found: the states reached (first the app's initial state), and every action tried in each,
/// with what it did.
public struct ExploredGraph: Sendable {
    /// A state: its restore document (the first found of its shape, with the ids that the shortest way to it
    /// gives), its visible path, how many actions from the start, and the edge it was first reached by.
    public struct State: Sendable {
        public let key: String
        public let document: JSONValue
        public let visiblePath: [String]
        public let depth: Int
        public let via: Int?
        /// The routes its tree has entered, as `Type.route`.
        public let entered: [String]
        /// The top-most visible entry, as `Type.route`.
        public let top: String
    }

    /// What an action did.
    public enum Outcome: Sendable, Hashable {
        /// A new version: the state it led to (the same one for a change that keeps the shape), and whether a guard
        /// redirected it there.
        case moved(to: Int, redirected: Bool)
        /// Accepted, nothing changed.
        case unchanged
        /// Refused, with the problem's code.
        case refused(String)
        /// It led to a state not kept (a limit was reached).
        case cut
    }

    /// An action tried in a state.
    public struct Edge: Sendable {
        public let from: Int
        public let action: ExploredAction
        public let outcome: Outcome

        /// The state it led to, when it led somewhere.
        public var target: Int? {
            if case .moved(let to, _) = outcome { return to }
            return nil
        }
    }

    public let app: AppVersion
    /// Whether the app is declared as data: places are JSON Pointers into its definition.
    public let isDefinedAsData: Bool
    public internal(set) var states: [State] = []
    public internal(set) var edges: [Edge] = []
    /// The bounds reached, in words (`20000 states`); empty for a complete exploration.
    public internal(set) var limitsReached: [String] = []
    /// Values the exploration made up for inputs and text fields, in words.
    public internal(set) var assumed: [String] = []
    /// Actions whose app code failed (an error the engine does not describe), in words: reported, never crashed.
    public internal(set) var failures: [String] = []
    public internal(set) var seconds: Double = 0
    /// Every route of every coordinator type (`Type.route`), whether a guard decides it, and every declared event.
    public let routes: [(name: String, guarded: Bool)]
    public let events: [String]
    public let deepLinkExamples: [String]

    /// The edges that made a new version: the transitions of the graph, which suites cover.
    public var transitions: [Int] {
        edges.indices.filter { edges[$0].target != nil }
    }

    /// The edges from the start to `state`, first to last: a shortest way there.
    public func way(to state: Int) -> [Int] {
        var way: [Int] = []
        var current = state
        while let edge = states[current].via {
            way.append(edge)
            current = edges[edge].from
        }
        return way.reversed()
    }
}
