/// Responses remembered by `Idempotency-Key` for one session, to replay a retried request; the oldest keys are
/// forgotten first, past a count and a byte budget.
struct ReplyCache {
    /// What is remembered of a response.
    struct Reply: Sendable {
        /// ``RequestFingerprint`` of the request answered: the same key with another request is refused.
        let fingerprint: UInt64
        let status: Int
        let headers: [(String, String)]
        let body: [UInt8]

        /// Bytes it holds, with its key.
        func cost(key: String) -> Int {
            body.count + key.utf8.count + headers.reduce(64) { $0 + $1.0.utf8.count + $1.1.utf8.count + 32 }
        }
    }

    private var replies: [String: Reply] = [:]
    private var order: [String] = []
    private var bytes = 0
    private let maxKeys: Int
    private let maxBytes: Int

    init(configuration: ServerConfiguration) {
        maxKeys = configuration.idempotencyLimit
        maxBytes = configuration.maxIdempotencyBytes
    }

    subscript(key: String) -> Reply? {
        replies[key]
    }

    mutating func store(_ reply: Reply, for key: String) {
        if let previous = replies[key] {
            bytes -= previous.cost(key: key)
        } else {
            order.append(key)
        }
        replies[key] = reply
        bytes += reply.cost(key: key)
        while order.count > 1, order.count > maxKeys || bytes > maxBytes {
            let oldest = order.removeFirst()
            if let dropped = replies.removeValue(forKey: oldest) { bytes -= dropped.cost(key: oldest) }
        }
    }
}
