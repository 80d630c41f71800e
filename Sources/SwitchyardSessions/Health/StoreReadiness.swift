/// Whether the store takes reads and writes now, as readiness reports it (``LiveSessions/readiness()``).
package struct StoreReadiness: Sendable {
    /// The store's state.
    package enum Status: String, Sendable {
        /// It takes reads and writes.
        case ready
        /// A full disk: reads and deletions still work.
        case readOnly
        /// It does not answer.
        case unavailable
        /// Its latest use failed, less than ``StoreHealth/failingFor`` ago.
        case failing
    }

    package let status: Status
    /// Why, when it is not ready.
    package let reason: String?
    /// Whether the store keeps sessions across restarts.
    package let durable: Bool
    /// The latest failure when it is recent and no success followed it: the operation, its incident id, and how
    /// many seconds ago.
    package let lastFailure: (operation: String, incident: String, secondsAgo: Int)?
}

extension LiveSessions {
    /// The store's readiness, from what it last said of itself and what its latest uses did; asks the store nothing
    /// it would have to wait for.
    package func readiness() -> StoreReadiness {
        let condition = archive.condition
        health.observe(condition)
        let failing = health.failing
        let (status, reason): (StoreReadiness.Status, String?) =
            switch condition {
            case .unavailable(let reason): (.unavailable, reason)
            case .readOnly(let reason): (.readOnly, reason)
            case .ready: failing == nil ? (.ready, nil) : (.failing, "its latest use failed")
            }
        return StoreReadiness(
            status: status, reason: reason, durable: archive.isDurable,
            lastFailure: failing.map {
                ($0.operation, $0.incident.id, max(0, Int(configuration.now() - $0.time)))
            })
    }
}
