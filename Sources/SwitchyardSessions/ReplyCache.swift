/// Answers remembered by idempotency key for one session, to replay a retried request; the oldest keys are
/// forgotten first, past a count and a byte budget.
struct ReplyCache {
    /// What is remembered of an answer.
    struct Entry: Sendable {
        /// The fingerprint of the request answered: the same key with another request is refused.
        let fingerprint: UInt64
        let reply: SessionReply

        /// Bytes it holds, with its key.
        func cost(key: String) -> Int {
            reply.body.count + key.utf8.count
                + reply.headers.reduce(64) { $0 + $1.0.utf8.count + $1.1.utf8.count + 32 }
        }
    }

    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private var bytes = 0
    private let maxKeys: Int
    private let maxBytes: Int

    init(configuration: SessionConfiguration) {
        maxKeys = configuration.idempotencyLimit
        maxBytes = configuration.maxIdempotencyBytes
    }

    subscript(key: String) -> Entry? {
        entries[key]
    }

    mutating func store(_ entry: Entry, for key: String) {
        if let previous = entries[key] {
            bytes -= previous.cost(key: key)
        } else {
            order.append(key)
        }
        entries[key] = entry
        bytes += entry.cost(key: key)
        while order.count > 1, order.count > maxKeys || bytes > maxBytes {
            let oldest = order.removeFirst()
            if let dropped = entries.removeValue(forKey: oldest) { bytes -= dropped.cost(key: oldest) }
        }
    }
}
