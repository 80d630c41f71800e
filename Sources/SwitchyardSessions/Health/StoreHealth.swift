import Logging
import Synchronization

/// What the server knows of its store's health: every failure is counted and logged at error level with its
/// detail (the first at once, then one line every ``logInterval`` saying how many more there were), and given an
/// incident id that the client's answer names instead of the detail. The failures of one kind between two log
/// lines, with no success between them, share the incident id of the first line (an incident is that burst of
/// failures), so that every id a client is given is in the log; each damage found (``ArchiveError/unreadable(_:)``,
/// by its reason) gets its own line and id. Readiness reads it (``failing``).
package final class StoreHealth: Sendable {
    /// A failure as the client hears of it: an id to quote, and whether retrying can help.
    package struct Incident: Error, Sendable, Equatable {
        /// 12 hex digits, in the log line and in the client's problem.
        package let id: String
        /// What failed.
        package let error: ArchiveError
    }

    /// The latest failure, for readiness.
    package struct Failure: Sendable, Equatable {
        package let incident: Incident
        package let operation: String
        /// Seconds since 1970.
        package let time: Double
    }

    private struct State {
        var latest: Failure?
        /// Whether a success followed the latest failure.
        var recovered = true
        var lastLogged: Double = -.infinity
        /// The incident id of the last line logged, and the kind of failure it was: the failures of that kind until
        /// the next line (and no success between) are given it too.
        var loggedIncident: (id: String, kind: String)?
        var unlogged = 0
        /// The store's condition as last observed.
        var condition = ArchiveCondition.ready
    }

    /// How often failures that go on are logged.
    static let logInterval = 10.0
    /// For how long after a failure (with no success since) readiness says the store is failing.
    static let failingFor = 10.0

    private let state = Mutex(State())
    private let counters: SessionCounters
    private let logger: Logger
    private let now: @Sendable () -> Double

    init(counters: SessionCounters, logger: Logger, now: @escaping @Sendable () -> Double) {
        self.counters = counters
        self.logger = logger
        self.now = now
    }

    /// Records a failure of `operation` (`create`, `change`, `read`, …): counted, logged (rate-limited), and
    /// returned as the incident to answer with.
    @discardableResult
    package func failed(_ error: ArchiveError, during operation: String, session: String? = nil) -> Incident {
        counters.countStoreFailure()
        let time = now()
        let kind = Self.kind(error)
        let (incident, suppressed) = state.withLock { state -> (Incident, Int?) in
            defer { state.recovered = false }
            if time - state.lastLogged < Self.logInterval, let logged = state.loggedIncident, logged.kind == kind,
                !state.recovered
            {
                let incident = Incident(id: logged.id, error: error)
                state.latest = Failure(incident: incident, operation: operation, time: time)
                state.unlogged += 1
                return (incident, nil)
            }
            let incident = Incident(id: Self.newID(), error: error)
            state.latest = Failure(incident: incident, operation: operation, time: time)
            defer { state.unlogged = 0 }
            state.lastLogged = time
            state.loggedIncident = (incident.id, kind)
            return (incident, state.unlogged)
        }
        guard let suppressed else { return incident }
        var metadata: Logger.Metadata = [
            "incident": "\(incident.id)", "operation": "\(operation)", "error": "\(error)",
        ]
        if let session { metadata["session"] = "\(session.prefix(6))…" }
        if suppressed > 0 { metadata["failuresSinceLastLine"] = "\(suppressed)" }
        logger.error("the session store failed", metadata: metadata)
        return incident
    }

    /// Records that the store answered: after failures, says so once in the log.
    package func succeeded() {
        let failure = state.withLock { state -> Failure? in
            guard !state.recovered else { return nil }
            state.recovered = true
            return state.latest
        }
        guard let failure else { return }
        logger.notice(
            "the session store answers again",
            metadata: ["lastIncident": "\(failure.incident.id)", "failingSince": "\(failure.time)"])
    }

    /// Logs a change of the store's own condition (``ArchiveCondition``): read-only or unavailable at error level
    /// with the reason, ready again as a notice. Called at start, by every expiry sweep and every readiness probe.
    package func observe(_ condition: ArchiveCondition) {
        let previous = state.withLock { state in
            defer { state.condition = condition }
            return state.condition
        }
        guard previous != condition else { return }
        switch condition {
        case .ready: logger.notice("the session store takes changes again")
        case .readOnly(let reason): logger.error("the session store is read-only", metadata: ["reason": "\(reason)"])
        case .unavailable(let reason):
            logger.error("the session store is unavailable", metadata: ["reason": "\(reason)"])
        }
    }

    /// The latest failure when no success followed it and it is recent (``failingFor``); nil otherwise.
    package var failing: Failure? {
        let time = now()
        return state.withLock { state in
            guard !state.recovered, let latest = state.latest, time - latest.time < Self.failingFor else { return nil }
            return latest
        }
    }

    /// The kind of a failure, as incidents are grouped.
    private static func kind(_ error: ArchiveError) -> String {
        switch error {
        case .unavailable: "unavailable"
        case .unreadable(let reason): "unreadable: \(reason)"  // each damage its own incident
        case .closed: "closed"
        case .conflict: "conflict"
        }
    }

    private static func newID() -> String {
        let value = UInt64.random(in: 0...(1 << 48 - 1))
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 12 - text.count) + text
    }
}
