import Switchyard
import Synchronization

/// The live sessions: creation with unguessable ids, lookup, deletion, idle expiry and a cap.
final class SessionStore: Sendable {
    private let sessions = Mutex<[String: Session]>([:])
    private let configuration: ServerConfiguration
    private let metrics: Metrics

    init(configuration: ServerConfiguration, metrics: Metrics) {
        self.configuration = configuration
        self.metrics = metrics
    }

    /// Why a session could not be created.
    enum CreateFailure: Error {
        case full
        case unknownApp(String, choices: [String])
        case engine(any Error)
    }

    /// Creates a session of `appName` (default: the first app).
    ///
    /// Idle sessions are expired here only when the store is full (to make room): scanning every session on every
    /// create made creation O(live sessions) under the store lock. The server's sweeper expires them otherwise.
    func create(appName: String?) throws(CreateFailure) -> Session {
        if count >= configuration.maxSessions { expireIdle() }
        let app: NavigationApp
        if let appName {
            guard let found = configuration.apps.first(where: { $0.name == appName }) else {
                throw .unknownApp(appName, choices: configuration.apps.map(\.name))
            }
            app = found
        } else {
            app = configuration.apps[0]
        }
        let engine: NavigationEngine
        do {
            engine = try app.makeEngine()
        } catch {
            throw .engine(error)
        }
        let session = Session(id: Self.newID(), engine: engine, configuration: configuration)
        let added = sessions.withLock { sessions -> Int? in
            guard sessions.count < configuration.maxSessions else { return nil }
            sessions[session.id] = session
            return sessions.count
        }
        guard let added else { throw .full }
        metrics.setSessions(added)
        return session
    }

    /// The session with that id, if it is live; a request naming it counts as using it.
    func session(_ id: String) -> Session? {
        let session = sessions.withLock { $0[id] }
        session?.markUsed()
        return session
    }

    /// Ends a session; false if there was none.
    @discardableResult
    func remove(_ id: String) -> Bool {
        let (session, count) = sessions.withLock { sessions in (sessions.removeValue(forKey: id), sessions.count) }
        metrics.setSessions(count)
        session?.closeStreams()
        return session != nil
    }

    /// Ends every session idle for longer than its TTL: ``ServerConfiguration/sessionTTL``, or the shorter
    /// ``ServerConfiguration/unusedSessionTTL`` for a session no request named after its creation. A session with
    /// an open stream does not expire. Returns how many ended.
    @discardableResult
    func expireIdle() -> Int {
        let now = configuration.now()
        let (expired, count) = sessions.withLock { sessions in
            let expired = sessions.values.filter { expiry(of: $0.currentActivity).map { $0 <= now } ?? false }
            for session in expired { sessions[session.id] = nil }
            return (expired, sessions.count)
        }
        metrics.setSessions(count)
        for session in expired { session.closeStreams() }
        return expired.count
    }

    /// Seconds until the first live session expires (at least 1), for `Retry-After` when the store is full; the
    /// idle TTL when every session has a stream open.
    func secondsUntilRoom() -> Int {
        let now = configuration.now()
        let first = sessions.withLock { $0.values.compactMap { expiry(of: $0.currentActivity) }.min() }
        let wait = first.map { $0 - now } ?? Self.seconds(configuration.sessionTTL)
        return max(1, Int(wait.rounded(.up)))
    }

    /// When a session with this activity expires; nil while a stream follows it.
    private func expiry(of activity: Session.Activity) -> Double? {
        guard activity.subscribers == 0 else { return nil }
        let ttl =
            activity.used ? configuration.sessionTTL : min(configuration.unusedSessionTTL, configuration.sessionTTL)
        return activity.lastAccess + Self.seconds(ttl)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The number of live sessions.
    var count: Int {
        sessions.withLock { $0.count }
    }

    /// 128 bits from the system's CSPRNG, as 32 hex digits.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
