import Dispatch
import Synchronization

/// The session layer's chores while a server runs, each on a background timer of its own: expiring idle sessions,
/// and with a store several nodes share, reconciling the streamed sessions with it and following the app versions
/// other nodes publish.
package final class SessionMaintenance: Sendable {
    private let sessions: LiveSessions
    private let releases: AppReleases
    private let timers = Mutex<[any DispatchSourceTimer]>([])
    private let sweepInterval: Duration
    private let reconcileInterval: Duration?
    private let registryPollInterval: Duration?

    /// The chores of `sessions` and `releases`: expiry a few times per the shortest idle TTL (`sessionTTL`,
    /// `unusedSessionTTL`; between 1 and 30 s); with a shared store, a reconcile every `reconcileInterval` and a look
    /// at the published apps every `registryPollInterval` (each at least 50 ms).
    package init(
        sessions: LiveSessions, releases: AppReleases, sessionTTL: Duration, unusedSessionTTL: Duration,
        reconcileInterval: Duration, registryPollInterval: Duration
    ) {
        self.sessions = sessions
        self.releases = releases
        sweepInterval = max(.seconds(1), min(.seconds(30), min(sessionTTL, unusedSessionTTL) / 4))
        let shared = sessions.archive.shared != nil
        self.reconcileInterval = shared ? max(.milliseconds(50), reconcileInterval) : nil
        self.registryPollInterval = shared ? max(.milliseconds(50), registryPollInterval) : nil
    }

    /// Starts the timers.
    package func start() {
        let (sessions, releases) = (self.sessions, self.releases)
        timers.withLock { timers in
            timers = [Self.timer("switchyard.expiry", every: sweepInterval) { _ = sessions.expireIdle() }]
            if let reconcileInterval {
                timers.append(Self.timer("switchyard.reconcile", every: reconcileInterval) { sessions.reconcile() })
            }
            if let registryPollInterval {
                timers.append(Self.timer("switchyard.published", every: registryPollInterval) { releases.follow() })
            }
        }
    }

    /// Stops the timers.
    package func stop() {
        timers.withLock { timers in
            for timer in timers { timer.cancel() }
            timers = []
        }
    }

    private static func timer(
        _ label: String, every interval: Duration, _ work: @escaping @Sendable () -> Void
    ) -> any DispatchSourceTimer {
        let nanoseconds =
            Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: label))
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
        timer.setEventHandler(handler: work)
        timer.resume()
        return timer
    }
}
