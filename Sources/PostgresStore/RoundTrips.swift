import Synchronization

/// How many round trips an archive's connections made to PostgreSQL: each statement or pipeline sent and its results
/// read, each statement prepared. What the bench divides by the changes made (``SwitchyardSessions/ArchiveStatistics``).
final class RoundTrips: Sendable {
    private let count = Atomic<Int>(0)

    /// The round trips counted so far.
    var total: Int { count.load(ordering: .relaxed) }

    /// Counts one.
    func add() {
        count.add(1, ordering: .relaxed)
    }
}
