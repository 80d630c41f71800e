import Synchronization

/// One connection's deadline and idleness (``ConnectionTable``): changed by the thread serving the connection on
/// every request without taking the table's lock, read by the sweep and the eviction under it.
///
/// Times are nanoseconds from the table's epoch, plus one, so that 0 can mean "none". `idleSince` is the moment the
/// connection last became idle (it may then be evicted); 0 while a request is answered or a stream is open, and
/// ``evicted`` once the eviction took it. Changing it from idle to busy or to evicted is a compare-and-exchange, so
/// a connection that begins a request is never evicted for the idleness it just ended, and one the eviction took
/// stays taken.
final class ConnectionTimer: Sendable {
    /// The value of `idleSince` once the eviction chose the connection.
    static let evicted: Int64 = -1

    let socket: Int32
    /// The network of its client, when known.
    let network: PeerNetwork?
    /// When it must have sent what it owes (0: no deadline).
    let deadline = Atomic<Int64>(0)
    /// When it started owing its current request (opened, or its previous response ended).
    let owedSince: Atomic<Int64>
    /// Since when it may be evicted (0: busy; ``evicted``: chosen by the eviction).
    let idleSince: Atomic<Int64>
    /// Whether no request has begun on it yet.
    let firstRequest = Atomic<Bool>(true)
    /// Shut down by a deadline or an eviction; libmicrohttpd has yet to close it. Set under the table's lock.
    let shutDown = Atomic<Bool>(false)

    init(socket: Int32, network: PeerNetwork?, openedAt now: Int64, deadline: Int64) {
        self.socket = socket
        self.network = network
        owedSince = Atomic(now)
        idleSince = Atomic(now)
        self.deadline.store(deadline, ordering: .relaxed)
    }

    /// It is answering a request (or holds a stream): not idle, unless the eviction took it already.
    func markBusy() {
        var current = idleSince.load(ordering: .acquiring)
        while current > 0 {
            let (exchanged, found) = idleSince.compareExchange(
                expected: current, desired: 0, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = found
        }
    }

    /// It waits for its next request from `now`: idle, unless the eviction took it already.
    func markIdle(at now: Int64) {
        _ = idleSince.compareExchange(expected: 0, desired: now, ordering: .acquiringAndReleasing)
    }

    /// The eviction takes it if it is still idle since `since`; false when it began a request meanwhile.
    func takeForEviction(idleSince since: Int64) -> Bool {
        idleSince.compareExchange(expected: since, desired: Self.evicted, ordering: .acquiringAndReleasing).exchanged
    }
}
