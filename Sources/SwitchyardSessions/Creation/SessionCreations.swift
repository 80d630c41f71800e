/// Session creation, once per idempotency key: a retry under a key gets the first answer while its session lives,
/// whether this node or another one created it, before or after a restart (the store keeps keyed creations).
package final class SessionCreations: Sendable {
    private let sessions: LiveSessions
    private let rendering: any CreationRendering
    private let ledger = CreationLedger(limit: 1024)

    /// Creations of `store`'s sessions, whose answers `rendering` renders.
    package init(sessions: LiveSessions, rendering: any CreationRendering) {
        self.sessions = sessions
        self.rendering = rendering
    }

    /// Runs `body` (a replay check, then a creation) under the creations' lock when the request has a `key`:
    /// concurrent retries of one key create one session.
    package func serializing<Result>(_ key: CreationKey?, _ body: () throws -> Result) rethrows -> Result {
        guard key != nil else { return try body() }
        return try ledger.serializingCreations(body)
    }

    /// The first answer under `key`, while the session it created lives; nil when the key is new, or its session
    /// has ended (the key then creates a new one). Refused when the key answered another request.
    package func replay(_ key: CreationKey) throws(CreateFailure) -> SessionReply? {
        var found = ledger.entry(for: key.scoped)
        if found == nil { found = try storedCreation(key.scoped) }
        guard let stored = found else { return nil }
        guard stored.fingerprint == key.fingerprint else { throw .keyReused(key.given) }
        guard (try? sessions.session(stored.session)) != nil else { return nil }
        return rendering.replayed(stored.reply)
    }

    /// Creates a session as `request` asks, stores it (with its answer under the request's key) and makes it live.
    package func create(_ request: CreateRequest) throws(CreateFailure) -> CreateOutcome {
        let session = try sessions.create(appName: request.app)
        let reply = session.withState { rendering.created($0.snapshot) }
        let key = request.key
        let creation = key.map { key in
            StoredReply(
                key: key.scoped, fingerprint: key.fingerprint, session: session.id, status: reply.status,
                headers: reply.headers, body: reply.body)
        }
        do {
            try sessions.publish(session, creation: creation)
        } catch .keyTaken {
            return try takenByAnotherNode(key)
        }
        if let key {
            ledger.store(.init(reply: reply, session: session.id, fingerprint: key.fingerprint), for: key.scoped)
        }
        return .created(session: session.id, reply)
    }

    /// Another node created a session under `key` first: its answer is the one to replay.
    private func takenByAnotherNode(_ key: CreationKey?) throws(CreateFailure) -> CreateOutcome {
        guard let key, let stored = try storedCreation(key.scoped) else {
            throw .store(sessions.health.failed(.conflict("the key's creation was not found"), during: "create"))
        }
        guard stored.fingerprint == key.fingerprint else { throw .keyReused(key.given) }
        ledger.store(stored, for: key.scoped)
        return .replayed(session: stored.session, rendering.replayed(stored.reply))
    }

    /// A keyed creation the store remembers (made before a restart, or on another node), as the ledger keeps it.
    private func storedCreation(_ scopedKey: String) throws(CreateFailure) -> CreationLedger.Entry? {
        do {
            guard let stored = try sessions.archive.creation(scopedKey) else { return nil }
            return .init(
                reply: SessionReply(status: stored.status, headers: stored.headers, body: stored.body),
                session: stored.session, fingerprint: stored.fingerprint)
        } catch {
            throw .store(sessions.health.failed(error, during: "read a creation"))
        }
    }
}
