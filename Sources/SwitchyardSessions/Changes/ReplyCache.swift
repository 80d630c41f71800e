import Switchyard

/// The idempotency ledger of one session: for every key it remembers, the request's fingerprint and its answer,
/// whole, or, for a successful change, as what rebuilds it (``ReplyRebuild``).
///
/// A key is remembered for the session's latest ``SessionConfiguration/idempotencyLimit`` keyed requests within
/// ``SessionConfiguration/idempotencyRetention``, whatever the answers weigh: answer bytes bound only which answers
/// are kept whole (``SessionConfiguration/maxIdempotencyBytes``, the oldest given up first). A retry under a key
/// whose answer was given up is answered with the answer rebuilt from the version it reported, and is never applied
/// again.
struct ReplyCache {
    /// A key's entry.
    struct Entry: Sendable {
        /// The fingerprint of the request answered: the same key with another request is refused.
        let fingerprint: UInt64
        /// The answer as it was rendered; nil once given up for the byte budget.
        var reply: SessionReply?
        /// What rebuilds a successful change's answer; nil for any other answer (a refusal, a redirect).
        let rebuild: ReplyRebuild?
        /// When it was answered (seconds, the store's clock).
        let time: Double
        /// Its place in the ledger's order (set when stored).
        fileprivate var sequence: UInt64 = 0

        init(fingerprint: UInt64, reply: SessionReply?, rebuild: ReplyRebuild?, time: Double) {
            self.fingerprint = fingerprint
            self.reply = reply
            self.rebuild = rebuild
            self.time = time
        }

        /// Bytes of answer it holds whole.
        var bytes: Int {
            guard let reply else { return 0 }
            return reply.body.count + reply.headers.reduce(64) { $0 + $1.0.utf8.count + $1.1.utf8.count + 32 }
        }
    }

    private var entries: [String: Entry] = [:]
    /// Keys in the order they were stored, oldest first; a place whose sequence is not its entry's is stale (the key
    /// was stored again, or forgotten). Those before `head` are gone.
    private var order: [(key: String, sequence: UInt64)] = []
    private var head = 0
    private var nextSequence: UInt64 = 0
    /// Places before this index in `order` hold no whole answer.
    private var wholeFrom = 0
    private var bytes = 0
    private let maxKeys: Int
    private let maxBytes: Int
    private let retention: Double

    init(configuration: SessionConfiguration) {
        maxKeys = max(1, configuration.idempotencyLimit)
        maxBytes = configuration.maxIdempotencyBytes
        retention = Double(configuration.idempotencyRetention.components.seconds)
    }

    subscript(key: String) -> Entry? {
        entries[key]
    }

    mutating func store(_ entry: Entry, for key: String) {
        if let previous = entries.removeValue(forKey: key) { bytes -= previous.bytes }
        nextSequence += 1
        var entry = entry
        entry.sequence = nextSequence
        order.append((key, nextSequence))
        entries[key] = entry
        bytes += entry.bytes
        // Forgotten: past the count, or older than the retention (the newest key always stays).
        while order.count - head > 1 {
            let (key, sequence) = order[head]
            guard let oldest = entries[key], oldest.sequence == sequence else {
                head += 1  // stale: stored again since, or forgotten already
                continue
            }
            guard entries.count > maxKeys || oldest.time < entry.time - retention else { break }
            head += 1
            entries[key] = nil
            bytes -= oldest.bytes
        }
        // Answers given up, oldest first, while the whole ones pass the byte budget.
        wholeFrom = max(wholeFrom, head)
        while bytes > maxBytes, wholeFrom < order.count - 1 {
            let (key, sequence) = order[wholeFrom]
            wholeFrom += 1
            guard var kept = entries[key], kept.sequence == sequence, kept.reply != nil else { continue }
            bytes -= kept.bytes
            kept.reply = nil
            // A refusal cannot be rebuilt: forgotten (it applied nothing, so a retry may run it again).
            entries[key] = kept.rebuild == nil ? nil : kept
        }
        if head > 1024, head * 2 > order.count {
            order.removeFirst(head)
            wholeFrom -= head
            head = 0
        }
    }
}
