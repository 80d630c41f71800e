/// How far an exploration goes: it stops adding states past `states`, does not act from states `depth` actions
/// from the start, and stops after `seconds`; the report says which bound it reached.
public struct ExplorationLimits: Sendable, Hashable {
    public var states: Int
    public var depth: Int
    public var seconds: Double

    /// Bounds (by default 20,000 states, 40 actions deep, 60 s).
    public init(states: Int = 20_000, depth: Int = 40, seconds: Double = 60) {
        self.states = states
        self.depth = depth
        self.seconds = seconds
    }
}
