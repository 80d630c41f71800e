import Synchronization

/// Keyed creations remembered in memory (the store keeps them too), the oldest forgotten first once there are
/// `limit`.
final class CreationLedger: Sendable {
    /// A remembered creation: its answer, the session it created and the request's fingerprint.
    struct Entry: Sendable {
        let reply: SessionReply
        let session: String
        let fingerprint: UInt64
    }

    private struct Entries {
        var byKey: [String: Entry] = [:]
        var order: [String] = []
    }

    private let entries = Mutex(Entries())
    /// Held across look-up, creation and `store` of a keyed creation (never while holding `entries`).
    private let creations = Mutex(())
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Runs keyed creations one at a time, so that two retries racing with one key cannot both create.
    func serializingCreations<Result>(_ body: () throws -> Result) rethrows -> Result {
        try creations.withLock { _ in try body() }
    }

    func entry(for key: String) -> Entry? {
        entries.withLock { $0.byKey[key] }
    }

    func store(_ entry: Entry, for key: String) {
        entries.withLock { entries in
            if entries.byKey[key] == nil {
                entries.order.append(key)
                if entries.order.count > limit { entries.byKey[entries.order.removeFirst()] = nil }
            }
            entries.byKey[key] = entry
        }
    }
}
