import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every open connection: its socket, the deadline of the request it owes, and whether it may be evicted.
///
/// **Deadlines**, on top of libmicrohttpd's inactivity timeout (which a client sending one byte every few seconds
/// never trips). A new connection owes the header of its first request within the first-request timeout (a client
/// that connects and says nothing holds a slot only that long), and the whole request within the request timeout;
/// a keep-alive connection owes its next request within the request timeout from the end of its previous response.
/// No deadline runs while a request is answered (the handler is never timed) or while an event stream is open.
///
/// **Eviction.** libmicrohttpd stops accepting at its connection cap, so clients that fill the cap with idle
/// connections would keep everyone else out. From ``evictionThreshold`` open connections on (90 % of the cap),
/// each new connection shuts down the connection idle the longest: one with no request in progress and no event
/// stream (a keep-alive connection between requests, or one that has not sent a whole header). A connection
/// answering a request or holding an event stream (a suspended connection) is never evicted; when none is idle,
/// a new connection takes a free slot or, at the cap, waits in the listen backlog, as before.
///
/// Both end a connection the same way: ``sweep(now:)`` and ``evictIdlest()`` shut its socket down, and
/// libmicrohttpd then sees the end of input and closes it itself (freeing its slot). The socket is shut down while
/// the table's lock is held, and a connection leaves the table (``closed(_:)``) before libmicrohttpd closes its
/// socket, so a socket number is never mistaken for another connection's.
final class ConnectionTable: Sendable {
    private struct Entry {
        let socket: Int32
        /// When the connection started owing its current request (opened, or its previous response ended).
        var owedSince: ContinuousClock.Instant
        /// Whether no request has begun on the connection yet.
        var firstRequest = true
        /// When it must have sent what it owes; nil while a request is answered or a stream is open.
        var deadline: ContinuousClock.Instant?
        /// Its place in `State.idle` while it may be evicted.
        var idleTicket: UInt64?
        /// Shut down by a deadline or an eviction; libmicrohttpd has yet to close it.
        var shutDown = false
        /// The network of its client, when known.
        var network: PeerNetwork?
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// Idle connections, oldest first; a ticket that no longer matches its entry's is skipped.
        var idle: [(ticket: UInt64, id: ObjectIdentifier)] = []
        var idleHead = 0
        var nextTicket: UInt64 = 0
        /// Entries shut down and not yet closed.
        var shutDownCount = 0
        /// Open connections by the network of their client.
        var networks: [PeerNetwork: Int] = [:]

        mutating func markIdle(_ id: ObjectIdentifier) {
            nextTicket += 1
            entries[id]?.idleTicket = nextTicket
            idle.append((nextTicket, id))
            if idle.count - idleHead > 2 * entries.count + 64 {
                // Mostly stale (each request of a keep-alive connection leaves one): keep the current tickets.
                idle = idle[idleHead...].filter { entries[$0.id]?.idleTicket == $0.ticket }
                idleHead = 0
            }
        }

        /// Shuts the connection's socket down (once); it stays in the table until libmicrohttpd closes it.
        mutating func shutDown(_ id: ObjectIdentifier) {
            guard var entry = entries[id], !entry.shutDown else { return }
            _ = shutdown(entry.socket, Int32(SHUT_RDWR))
            entry.shutDown = true
            entry.deadline = nil
            entry.idleTicket = nil
            entries[id] = entry
            shutDownCount += 1
        }

        /// Drops the queue's stale front and compacts it now and then.
        mutating func compactIdle() {
            while idleHead < idle.count, entries[idle[idleHead].id]?.idleTicket != idle[idleHead].ticket {
                idleHead += 1
            }
            if idleHead > 1024 && idleHead * 2 > idle.count {
                idle.removeFirst(idleHead)
                idleHead = 0
            }
        }
    }

    private let requestTimeout: Duration
    private let firstRequestTimeout: Duration
    /// Open connections (not counting those already shut down) from which a new one evicts the idlest.
    let evictionThreshold: Int
    /// The most connections one network may hold.
    let perNetwork: Int
    private let state = Mutex(State())

    /// Deadlines of `requestTimeout` per request and `firstRequestTimeout` for a new connection's first header
    /// (`.zero` turns either off); eviction from 90 % of `capacity` connections (at most `capacity - 1`); at most
    /// `perNetwork` connections from one network.
    init(requestTimeout: Duration, firstRequestTimeout: Duration, capacity: Int, perNetwork: Int = .max) {
        self.requestTimeout = requestTimeout
        self.firstRequestTimeout = firstRequestTimeout
        evictionThreshold = capacity - max(1, capacity / 10)
        self.perNetwork = max(1, perNetwork)
    }

    /// Whether a connection from `network` may open: it holds fewer than its share.
    func admits(_ network: PeerNetwork) -> Bool {
        state.withLock { ($0.networks[network] ?? 0) < perNetwork }
    }

    /// The connections libmicrohttpd has open (those shut down and not yet closed included).
    var count: Int {
        state.withLock { $0.entries.count }
    }

    /// A connection opened on `socket`: it owes its first request, and it is idle.
    func opened(_ context: ConnectionContext, socket: Int32) {
        guard socket >= 0 else { return }
        let now = ContinuousClock.now
        let id = ObjectIdentifier(context)
        let network = PeerNetwork(socket: socket)
        state.withLock { state in
            var entry = Entry(socket: socket, owedSince: now, deadline: firstDeadline(from: now))
            entry.network = network
            state.entries[id] = entry
            if let network { state.networks[network, default: 0] += 1 }
            state.markIdle(id)
        }
    }

    /// A request's header is in: the connection is busy, and owes the rest of its request by the request deadline.
    func requestBegan(_ context: ConnectionContext) {
        state.withLock { state in
            guard var entry = state.entries[ObjectIdentifier(context)], !entry.shutDown else { return }
            entry.idleTicket = nil
            if entry.firstRequest {
                entry.firstRequest = false
                entry.deadline = requestTimeout > .zero ? entry.owedSince + requestTimeout : nil
            }
            state.entries[ObjectIdentifier(context)] = entry
        }
    }

    /// The request is answered (its response is queued, or an event stream opened): no deadline until it ends.
    func answered(_ context: ConnectionContext) {
        state.withLock { state in
            let id = ObjectIdentifier(context)
            state.entries[id]?.deadline = nil
            state.entries[id]?.idleTicket = nil
        }
    }

    /// The response ended and the connection stays open: it owes its next request, and it is idle.
    func awaiting(_ context: ConnectionContext) {
        let now = ContinuousClock.now
        state.withLock { state in
            let id = ObjectIdentifier(context)
            guard var entry = state.entries[id], !entry.shutDown else { return }
            entry.owedSince = now
            entry.deadline = requestTimeout > .zero ? now + requestTimeout : nil
            state.entries[id] = entry
            state.markIdle(id)
        }
    }

    /// The connection is closing; called before its socket is closed.
    func closed(_ context: ConnectionContext) {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: ObjectIdentifier(context)) else { return }
            if entry.shutDown { state.shutDownCount -= 1 }
            if let network = entry.network {
                let left = (state.networks[network] ?? 1) - 1
                state.networks[network] = left > 0 ? left : nil
            }
            if state.entries.isEmpty {
                state.idle = []
                state.idleHead = 0
            }
        }
    }

    /// Shuts down every connection whose request is overdue; returns how many.
    @discardableResult
    func sweep(now: ContinuousClock.Instant = .now) -> Int {
        state.withLock { state in
            let overdue = state.entries.filter { $0.value.deadline.map { $0 <= now } ?? false }.keys
            for id in overdue { state.shutDown(id) }
            return overdue.count
        }
    }

    /// A connection is being accepted: from ``evictionThreshold`` open connections on, shuts down the one idle the
    /// longest. Returns whether one was shut down.
    @discardableResult
    func evictIdlest() -> Bool {
        state.withLock { state in
            guard state.entries.count - state.shutDownCount >= evictionThreshold else { return false }
            state.compactIdle()
            guard state.idleHead < state.idle.count else { return false }
            let id = state.idle[state.idleHead].id
            state.idleHead += 1
            state.shutDown(id)
            return true
        }
    }

    private func firstDeadline(from now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        let timeouts = [firstRequestTimeout, requestTimeout].filter { $0 > .zero }
        return timeouts.min().map { now + $0 }
    }
}
