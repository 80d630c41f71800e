import Logging
import Switchyard
import SwitchyardJSON
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The live sessions: creation with unguessable ids, lookup, deletion, idle expiry and a cap, over the archive
/// where sessions are stored before anyone learns of them and read back from after a restart; and the change
/// pipeline (``ChangePipeline``).
package final class LiveSessions: Sendable {
    let sessions = Mutex<[String: Session]>([:])
    /// The removals from the archive that a session being read back must not miss: a load cannot bring back a
    /// session that a delete or an expiry took away meanwhile. (Taken after `sessions` when both are held.)
    private let removals = Mutex(RemovalLedger())
    /// The apps served now (`configuration.apps` until a reload or an admin change replaces them,
    /// ``reload(_:checking:)`` and ``serve(_:changing:)``) and how many times they were replaced.
    let served: Mutex<(apps: ServedApps, generation: Int)>
    package let configuration: SessionConfiguration
    /// Where sessions are stored: the configured archive, or this store's own memory.
    package let archive: any SessionArchive
    /// What the sessions count, for the server's counters.
    package let counters: SessionCounters
    /// Failures of the store: counted, logged, and named to clients by an incident id.
    package let health: StoreHealth
    /// What the live sessions' kept screen renderings may take together.
    let renderings: RenderingBudget
    /// How often a request runs again when its session changed under it: the layer's one policy.
    let retry = RetryPolicy.standard

    /// About how many bytes the live sessions' kept screen renderings hold now.
    package var renderingBytes: Int { renderings.bytes }
    let logger: Logger

    /// Sessions as `configuration` says; what goes wrong with the store is logged to `logger`. With a shared
    /// archive, changes other nodes store reach this node's streams.
    package init(configuration: SessionConfiguration, logger: Logger) {
        precondition(!configuration.apps.isEmpty, "SessionConfiguration.apps must name at least one app")
        self.configuration = configuration
        let apps: ServedApps
        do {
            apps = try ServedApps(configuration.apps, rollouts: configuration.rollouts)
        } catch {
            // NavigationServer and the command line refuse to start on it; an API made directly says it loudly.
            logger.critical("the rollouts are refused, each app's latest version takes new sessions: \(error)")
            apps = ServedApps(configuration.apps)
        }
        served = Mutex((apps, 0))
        archive = configuration.archive ?? MemorySessionArchive(limits: .inMemory)
        self.logger = logger
        counters = SessionCounters()
        renderings = RenderingBudget(maxBytes: configuration.maxRenderingBytes)
        health = StoreHealth(counters: counters, logger: logger, now: configuration.now)
        health.observe(archive.condition)
        archive.shared?.follow { [weak self] notice in self?.handle(notice) }
    }

    /// The apps served now, every version of each; the first app's name is the default.
    package var apps: [NavigationApp] {
        served.withLock { $0.apps.apps }
    }

    /// The apps served now, with how many reloads replaced them (what a cache of their catalogs is keyed by).
    package var servedApps: (apps: ServedApps, generation: Int) {
        served.withLock { $0 }
    }

    /// The live sessions by the app version they run, for the metrics (every served version, with 0 when none).
    package var sessionsByVersion: [AppVersion: Int] {
        let live = sessions.withLock { Array($0.values) }
        var counts = Dictionary(apps.map { ($0.identity, 0) }) { first, _ in first }
        for session in live { counts[session.appVersionIfIdle, default: 0] += 1 }
        return counts
    }

    /// A creation refused by a full server, with the seconds until the first session expires.
    private var fullForCreation: CreateFailure {
        .full(limit: configuration.maxSessions, retryAfter: secondsUntilRoom())
    }

    /// A read-back refused by a full server, with the seconds until the first session expires.
    private var fullForLookup: LookupFailure {
        .full(limit: configuration.maxSessions, retryAfter: secondsUntilRoom())
    }

    /// A new session of `appName` (default: the first app), not yet live: ``publish(_:creation:)`` makes it so.
    package func create(appName: String?) throws(CreateFailure) -> Session {
        if count >= configuration.maxSessions { expireIdle() }
        if count >= configuration.maxSessions { evictLeastRecentlyUsed() }
        let (apps, generation) = served.withLock { $0 }
        // A split between versions is sticky: the session keeps the version drawn here until it is migrated.
        guard let app = apps.forNewSession(appName, pick: Double.random(in: 0..<1)) else {
            throw .unknownApp(appName ?? "", choices: apps.names)
        }
        let engine: NavigationEngine
        do {
            engine = try app.makeEngine()
        } catch {
            throw .engine("\(error)")
        }
        engine.screenRenderings = renderings.makeRenderings()
        let session = Session(
            id: Self.newID(), app: app.name, engine: engine, configuration: configuration, generation: generation,
            renderingBudget: renderings)
        // The first document obeys the limits every change's does; the answer reuses its rendering.
        if case .failure(let refusal) = session.withState({ $0.admitFirstDocument() }) {
            throw .firstDocument(refusal)
        }
        return session
    }

    /// Stores a created session (with the answer to replay for a keyed creation) and makes it live.
    ///
    /// The count is checked first, so a full server stores nothing; a store failure leaves nothing live.
    package func publish(_ session: Session, creation: StoredReply?) throws(CreateFailure) {
        if count >= configuration.maxSessions { evictLeastRecentlyUsed() }
        guard count < configuration.maxSessions else { throw fullForCreation }
        let made = session.withState { state in
            Result { try state.stored(app: session.app, time: session.time, deltas: archive.storesDeltas) }
        }
        let stored: StoredSession
        switch made {
        case .success(let value): stored = value
        case .failure(let error): throw .engine("\(error)")
        }
        do {
            try archive.apply([.create(stored, creation: creation)])
            health.succeeded()
        } catch .conflict {
            throw .keyTaken
        } catch {
            throw .store(health.failed(error, during: "create"))
        }
        let added = sessions.withLock { sessions -> Int? in
            guard sessions.count < configuration.maxSessions else { return nil }
            // Made by the apps a reload has just replaced: stored, and read back under the new ones when named.
            guard session.generation == served.withLock({ $0.generation }) else { return sessions.count }
            sessions[session.id] = session
            return sessions.count
        }
        guard let added else {
            // Lost a race for the last place: take back what was stored.
            try? archive.apply([.remove(session: session.id)])
            throw fullForCreation
        }
        counters.setSessions(added)
    }

    /// The session with that id: live in memory, or read back from the archive (then it is live again). A request
    /// naming it counts as using it. With an archive other nodes write to, a copy in memory is first checked
    /// against the store (one read, which also brings the answer stored under the request's idempotency `key` if
    /// the copy does not know it).
    package func session(_ id: String, key: String? = nil) throws(LookupFailure) -> Session {
        if let session = live(id) {
            try checkCurrent(session, key: key)
            session.markUsed()
            return session
        }
        guard Self.isWellFormed(id) else { throw .unknown }
        let ticket = removals.withLock { $0.beginRead() }
        defer { removals.withLock { $0.endRead(ticket) } }
        return try load(id, ticket, key: key)
    }

    /// The session a change without an idempotency key runs on (``ChangePipeline``): as ``session(_:key:)``,
    /// except that with a shared archive a copy in memory is read first only when another node announced a version
    /// past the copy's. Reading it first would not make the change safer: its write is a compare-and-set that finds
    /// any copy behind (the change then runs again on the stored state), and an answer given without a write is
    /// checked against the store before it is given. On one node, or with requests for a session kept on one node,
    /// that saves a read per change.
    package func sessionToChange(_ id: String) throws(LookupFailure) -> Session {
        guard archive.shared != nil, let session = live(id) else { return try self.session(id) }
        try checkCurrent(session, known: session.currentActivity.heard)
        session.markUsed()
        return session
    }

    /// The session with that id if it is in memory.
    func live(_ id: String) -> Session? {
        sessions.withLock { $0[id] }
    }

    /// The sessions in memory that an event stream follows.
    func followedSessions() -> [Session] {
        sessions.withLock { $0.values.filter { $0.currentActivity.subscribers > 0 } }
    }

    /// Reads a session back from the archive and makes it live, unless a delete or an expiry removed it after the
    /// read of `ticket` began; the copy another request read back meanwhile if there is one, checked against the
    /// store (that request's read may have begun before a change another node stored, which this one's did not).
    private func load(_ id: String, _ ticket: RemovalLedger.Ticket, key: String?) throws(LookupFailure) -> Session {
        for attempt in 0..<retry.attempts {
            // Other nodes keep changing it while it is migrated, or a reload replaced the apps meanwhile.
            retry.pause(before: attempt)
            let stored: StoredSession?
            do {
                stored = try archive.session(id)
            } catch {
                throw .store(health.failed(error, during: "load", session: id))
            }
            guard let stored else { throw .unknown }
            if let expires = expiry(
                of: Session.Activity(lastAccess: stored.lastAccess, recordedAccess: 0, used: stored.used)),
                expires <= configuration.now()
            {
                // Stored, but idle past its TTL (the server was down when it would have expired): it is gone.
                if (try? archive.apply([.remove(session: id)])) != nil { _ = forget([id]) }
                throw .unknown
            }
            // Room is made only for a session that exists and lives: one that does not is 404 however full the server
            // is.
            if count >= configuration.maxSessions { expireIdleInMemory() }
            if count >= configuration.maxSessions { evictLeastRecentlyUsed() }
            guard count < configuration.maxSessions else { throw fullForLookup }
            let (apps, generation) = served.withLock { $0 }
            // Another node changed it while it was being migrated: read again.
            guard case .ready(let engine, let current) = try readBack(stored, under: apps) else { continue }
            counters.countRestored()
            engine.screenRenderings = renderings.makeRenderings()
            let restored = Session(
                restoring: current, engine: engine, configuration: configuration, generation: generation,
                deltas: archive.storesDeltas, renderingBudget: renderings)
            restored.markUsed()
            let placed = sessions.withLock { sessions -> Result<Session, LookupFailure>? in
                if let other = sessions[id] { return .success(other) }  // read back by another request meanwhile
                if removals.withLock({ $0.wasRemoved(id, during: ticket) }) { return .failure(.unknown) }
                // A reload replaced the apps meanwhile: read again, under the new ones.
                guard generation == served.withLock({ $0.generation }) else { return nil }
                sessions[id] = restored
                return .success(restored)
            }
            switch placed {
            case nil: continue
            case .failure(let failure): throw failure
            case .success(let session):
                session.markUsed()
                counters.setSessions(count)
                if session !== restored { try checkCurrent(session, key: key) }
                return session
            }
        }
        let busy = ArchiveError.unavailable("the session kept changing while it was read back (other nodes writing)")
        throw .store(health.failed(busy, during: "load", session: id))
    }

    /// An engine of session `id`'s app rebuilt from a restore document, by the served version that wrote it; one
    /// whose version is not served, or that version cannot restore, is ``LookupFailure/incompatible(_:)``, logged
    /// and counted. (A session read back from the store goes through ``readBack(_:under:)``, which migrates.)
    package func engine(of id: String, app name: String, from state: [UInt8]) throws(LookupFailure) -> NavigationEngine
    {
        let apps = served.withLock { $0.apps }
        do {
            let document = try JSONValue(parsing: state)
            let identity = try AppVersion.written(in: document, app: name)
            guard let app = apps.app(identity) else {
                throw NavigationError.restoreFailed(
                    apps.versions(of: name).isEmpty
                        ? "the app '\(name)' is not served any more" : "\(identity) is not served any more")
            }
            return try app.restoreEngine(from: document)
        } catch {
            throw incompatible(id, Self.reason(error))
        }
    }

    /// Ends a session: removed from the archive first (a failure leaves it as it was), then from memory. False if
    /// there was none.
    package func remove(_ id: String) throws(StoreHealth.Incident) -> Bool {
        var existed = sessions.withLock { $0[id] != nil }
        do {
            if !existed, Self.isWellFormed(id) {
                existed = try archive.version(of: id) != nil
            }
            guard existed else { return false }
            try archive.apply([.remove(session: id)])
        } catch {
            throw health.failed(error, during: "delete", session: id)
        }
        for session in forget([id]) { session.closeStreams() }
        return existed
    }

    /// Takes sessions the archive no longer holds out of memory, and out of reach of the loads reading them back
    /// now (``RemovalLedger``); returns the copies that were live.
    private func forget(_ ids: [String]) -> [Session] {
        let (forgotten, count) = sessions.withLock { sessions in
            removals.withLock { $0.record(removalOf: ids) }
            return (ids.compactMap { sessions.removeValue(forKey: $0) }, sessions.count)
        }
        counters.setSessions(count)
        return forgotten
    }

    /// Drops a session from memory, keeping what the archive holds: after a write failed, the archive is the truth,
    /// and the next request reads the session back from it. A copy that has ended (a request on it was refused with
    /// ``ChangeRefusal/sessionMoved``) may be dropped by whoever meets it first: nothing else is dropped in its place.
    package func evict(_ session: Session) {
        session.awaitWrites()
        let count = sessions.withLock { sessions in
            if sessions[session.id] === session { sessions[session.id] = nil }
            return sessions.count
        }
        counters.setSessions(count)
        session.closeStreams()
    }

    /// With a durable store, a full server makes room by taking the least recently used sessions without a stream
    /// out of memory (1 % of the cap at a time): they stay stored, and the next request naming one reads it back.
    /// The cap then bounds memory, not how many sessions exist. Their use is written to the store as they leave,
    /// so that they expire there when they would have here. With the in-memory archive nothing is taken out: it
    /// would free no memory.
    private func evictLeastRecentlyUsed() {
        guard archive.isDurable else { return }
        // Chosen from a copy, so that sorting the sessions does not hold the lock every lookup takes.
        let live = sessions.withLock { Array($0.values) }
        let over = live.count - configuration.maxSessions + 1
        guard over > 0 else { return }
        let batch = max(over, configuration.maxSessions / 100)
        let idle = live.compactMap { session in
            let activity = session.currentActivity
            return activity.subscribers == 0 ? (session, activity.lastAccess) : nil
        }
        let chosen = idle.sorted { $0.1 < $1.1 }.prefix(batch).map(\.0)
        // Ended, and their writes in flight settled, before they leave: a request meanwhile reads a session back
        // only once the writes it will acknowledge are stored. A request waiting for one of them is refused with
        // `sessionMoved`, and its retry reads the session back.
        for session in chosen { session.closeStreams() }
        for session in chosen { session.awaitWrites() }
        let victims = sessions.withLock { sessions in
            chosen.filter { session in
                guard sessions[session.id] === session else { return false }
                sessions[session.id] = nil
                return true
            }
        }
        guard !victims.isEmpty else { return }
        counters.setSessions(count)
        let now = configuration.now()
        let touches = victims.sorted { $0.id < $1.id }.compactMap { session in
            session.unrecordedActivity(now: now).map {
                ArchiveWrite.touch(session: session.id, lastAccess: $0.lastAccess, used: $0.used)
            }
        }
        do {
            try archive.apply(touches)
        } catch {
            // They are stored still; at worst they expire a little earlier than they would have.
            health.failed(error, during: "evict")
        }
    }

    /// Ends every session idle for longer than its TTL: ``SessionConfiguration/sessionTTL``, or the shorter
    /// ``SessionConfiguration/unusedSessionTTL`` for a session no request named after its creation. A session with
    /// an open stream does not expire. With an archive, the sessions idle in memory leave it, every session in
    /// memory tells the archive when it was used, and the archive ends the stored sessions idle for as long
    /// (those idle here but used on another node sharing the archive stay). Returns how many ended.
    @discardableResult
    package func expireIdle() -> Int {
        health.observe(archive.condition)
        let now = configuration.now()
        let (expired, live) = expireIdleInMemory(now: now)
        return expireStored(sessions: expired + live, now: now)
    }

    /// Drops the sessions in memory idle past their TTL; returns them and the sessions still live.
    @discardableResult
    private func expireIdleInMemory(now: Double? = nil) -> (expired: [Session], live: [Session]) {
        let now = now ?? configuration.now()
        let (expired, live, count) = sessions.withLock { sessions in
            let expired = sessions.values.filter { expiry(of: $0.currentActivity).map { $0 <= now } ?? false }
            for session in expired { sessions[session.id] = nil }
            return (expired, Array(sessions.values), sessions.count)
        }
        counters.setSessions(count)
        for session in expired { session.closeStreams() }
        return (expired, live)
    }

    /// Tells the archive the use of the sessions that were in memory, then lets it end the stored sessions idle
    /// past their TTL (a load reading one back meanwhile finds it gone, ``RemovalLedger``); returns how many ended.
    private func expireStored(sessions: [Session], now: Double) -> Int {
        // In the order of their ids: nodes sweeping at once lock rows in one order (no deadlock between them).
        let touches = sessions.sorted { $0.id < $1.id }.compactMap { session in
            session.unrecordedActivity(now: now).map { (session, $0) }
        }
        let writes = touches.map {
            ArchiveWrite.touch(session: $0.0.id, lastAccess: $0.1.lastAccess, used: $0.1.used)
        }
        do {
            try archive.apply(writes)
            for (session, touch) in touches { session.recorded(touch) }
            let (usedBefore, unusedBefore) = (
                now - Self.seconds(configuration.sessionTTL),
                now - Self.seconds(min(configuration.unusedSessionTTL, configuration.sessionTTL))
            )
            let ended = try archive.expire(usedBefore: usedBefore, unusedBefore: unusedBefore)
            for session in forget(ended) { session.closeStreams() }
            return ended.count
        } catch {
            // The next sweep tries again: a stored session only ends later than it should.
            health.failed(error, during: "expire")
            return 0
        }
    }

    /// Seconds until there is room for a session, for `Retry-After` when the server is full: 1 when a durable store
    /// can evict an idle session (the next try finds the room eviction makes), else until the first live session
    /// expires (at least 1); the idle TTL when every session has a stream open.
    package func secondsUntilRoom() -> Int {
        let now = configuration.now()
        let first = sessions.withLock { $0.values.compactMap { expiry(of: $0.currentActivity) }.min() }
        // A durable store makes room by evicting the least recently used idle session: a creation that lost the
        // race for the place one made finds another at once.
        if archive.isDurable, first != nil { return 1 }
        let wait = first.map { $0 - now } ?? Self.seconds(configuration.sessionTTL)
        return max(1, Int(wait.rounded(.up)))
    }

    /// When a session with this activity expires; nil while a stream follows it.
    func expiry(of activity: Session.Activity) -> Double? {
        guard activity.subscribers == 0 else { return nil }
        let ttl =
            activity.used ? configuration.sessionTTL : min(configuration.unusedSessionTTL, configuration.sessionTTL)
        return activity.lastAccess + Self.seconds(ttl)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The number of live sessions.
    package var count: Int {
        sessions.withLock { $0.count }
    }

    /// 128 bits from the system's CSPRNG, as 32 hex digits.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    /// Whether `id` could be a session id at all (32 lowercase hex digits): anything else is not looked up.
    static func isWellFormed(_ id: String) -> Bool {
        id.utf8.count == 32 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    private static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
