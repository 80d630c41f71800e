/// The removals from the archive (a delete, an expiry) that a session read back from it must not miss.
///
/// A read of a session may predate its removal; made live after the removal, it would be served (and changed) while
/// the store no longer holds it. Each read takes a ticket before it starts; the removals completed while any read is
/// in flight are kept, and a read whose session was removed after its ticket answers that the session is gone.
///
/// This replaces a lock held across the read and the removal's store call: a load never waits behind an expiry
/// sweep or another load, so that a store that stopped answering costs a request one store timeout, not several.
struct RemovalLedger {
    /// A read in flight: the count of removals recorded when it began.
    struct Ticket {
        fileprivate let removals: Int
    }

    /// How many removals were recorded.
    private var removals = 0
    /// How many reads are in flight, by the removal count they began at.
    private var reading: [Int: Int] = [:]
    /// The count at each removal kept for the reads in flight (none are kept while none is).
    private var removed: [String: Int] = [:]

    /// Starts a read.
    mutating func beginRead() -> Ticket {
        reading[removals, default: 0] += 1
        return Ticket(removals: removals)
    }

    /// Whether session `id` was removed after the read of `ticket` began.
    func wasRemoved(_ id: String, during ticket: Ticket) -> Bool {
        removed[id].map { $0 > ticket.removals } ?? false
    }

    /// Ends a read (whatever became of it); forgets the removals no read in flight can miss.
    mutating func endRead(_ ticket: Ticket) {
        reading[ticket.removals, default: 1] -= 1
        if reading[ticket.removals] == 0 { reading[ticket.removals] = nil }
        guard let oldest = reading.keys.min() else {
            removed = [:]
            return
        }
        removed = removed.filter { $0.value > oldest }
    }

    /// Records that the sessions `ids` are no longer stored.
    mutating func record(removalOf ids: some Sequence<String>) {
        guard !reading.isEmpty else { return }
        for id in ids {
            removals += 1
            removed[id] = removals
        }
    }
}
