import Foundation
import Switchyard

/// The live sessions: creation with unguessable ids, lookup, deletion, idle expiry and a cap.
final class SessionStore: @unchecked Sendable {
    // @unchecked: `sessions` is only touched while `lock` is held.

    private let lock = NSLock()
    private var sessions: [String: Session] = [:]
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
        let metrics = self.metrics
        let session = Session(
            id: Self.newID(), engine: engine, configuration: configuration,
            onBroadcast: { metrics.countBroadcast() })
        lock.lock()
        defer { lock.unlock() }
        guard sessions.count < configuration.maxSessions else { throw .full }
        sessions[session.id] = session
        metrics.setSessions(sessions.count)
        return session
    }

    /// The session with that id, if it is live.
    func session(_ id: String) -> Session? {
        lock.lock()
        defer { lock.unlock() }
        return sessions[id]
    }

    /// Ends a session; false if there was none.
    @discardableResult
    func remove(_ id: String) -> Bool {
        lock.lock()
        let session = sessions.removeValue(forKey: id)
        metrics.setSessions(sessions.count)
        lock.unlock()
        session?.closeStreams()
        return session != nil
    }

    /// Ends every session idle for longer than the TTL. Returns how many ended.
    @discardableResult
    func expireIdle() -> Int {
        let ttl =
            Double(configuration.sessionTTL.components.seconds)
            + Double(configuration.sessionTTL.components.attoseconds) / 1e18
        let deadline = configuration.now() - ttl
        lock.lock()
        let expired = sessions.values.filter { $0.lastAccess < deadline }
        for session in expired { sessions[session.id] = nil }
        metrics.setSessions(sessions.count)
        lock.unlock()
        for session in expired { session.closeStreams() }
        return expired.count
    }

    /// The number of live sessions.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return sessions.count
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
