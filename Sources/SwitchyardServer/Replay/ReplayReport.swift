import SwitchyardJSON

/// What a replay of stored sessions on a candidate found: each session's result, and the counts a release decision
/// reads (sessions replayed, clean, diverged, grouped by reason with an example each; requests per second).
public struct ReplayReport: Sendable {
    /// Sessions that diverged for one reason: how many, and the first one.
    public struct Group: Sendable {
        /// The reason they share.
        public var reason: String
        /// How many.
        public var sessions: Int
        /// The first session that diverged for it.
        public var example: String
    }

    /// The per-session results kept (every one up to ``ReplayOptions/resultsKept`` clean and as many diverged), in
    /// the order replayed.
    public private(set) var sessions: [SessionReplay] = []
    /// Sessions replayed.
    public private(set) var replayed = 0
    /// Sessions that replayed without a divergence (cut ones included).
    public private(set) var clean = 0
    /// Sessions that diverged.
    public private(set) var diverged = 0
    /// Sessions whose replay was cut before the end of their history (also counted clean or diverged).
    public private(set) var cut = 0
    /// Requests re-run, over all sessions.
    public private(set) var requests = 0
    /// Seconds the replay took.
    public var seconds: Double = 0
    /// The groups of diverged sessions, largest first.
    public var groups: [Group] {
        order.compactMap { byReason[$0] }.sorted { $0.sessions > $1.sessions }
    }
    /// What the bounds left out of the whole replay (sessions not replayed when the time was up); nil when nothing.
    public var stopped: String?
    /// Why the replay could not run (the store could not be listed); nil when it ran. A report with a failure
    /// proves nothing.
    public var failure: String?

    private var byReason: [String: Group] = [:]
    private var order: [String] = []
    private var keptClean = 0
    private var keptDiverged = 0
    private let resultsKept: Int

    /// An empty report keeping up to `resultsKept` clean and as many diverged results.
    public init(resultsKept: Int = ReplayOptions().resultsKept) {
        self.resultsKept = resultsKept
    }

    /// Requests re-run per second.
    public var requestsPerSecond: Double {
        seconds > 0 ? Double(requests) / seconds : 0
    }

    /// Counts session `result` (and keeps it, within the bound).
    public mutating func record(_ result: SessionReplay) {
        replayed += 1
        requests += result.requests
        if result.cut != nil { cut += 1 }
        if let divergence = result.firstDivergence {
            diverged += 1
            if byReason[divergence.reason] == nil {
                order.append(divergence.reason)
                byReason[divergence.reason] = Group(reason: divergence.reason, sessions: 0, example: result.session)
            }
            byReason[divergence.reason]?.sessions += 1
            guard keptDiverged < resultsKept else { return }
            keptDiverged += 1
        } else {
            clean += 1
            guard keptClean < resultsKept else { return }
            keptClean += 1
        }
        sessions.append(result)
    }
}
