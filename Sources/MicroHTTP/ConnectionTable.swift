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
/// **No lock per request.** A connection's deadline and idleness live in its ``ConnectionTimer``, which the thread
/// serving it changes with atomic operations at each request's start, answer and end; the table's lock is taken
/// when a connection opens or closes, by the sweep and by the eviction (which looks for the connection idle the
/// longest among the open ones, only near the cap).
///
/// Both end a connection the same way: ``sweep(now:)`` and ``evictIdlest()`` shut its socket down, and
/// libmicrohttpd then sees the end of input and closes it itself (freeing its slot). The socket is shut down while
/// the table's lock is held, and a connection leaves the table (``closed(_:)``) before libmicrohttpd closes its
/// socket, so a socket number is never mistaken for another connection's.
final class ConnectionTable: Sendable {
    private struct State {
        var entries: [ObjectIdentifier: ConnectionTimer] = [:]
        /// Entries shut down and not yet closed.
        var shutDownCount = 0
        /// Open connections by the network of their client.
        var networks: [PeerNetwork: Int] = [:]

        /// Shuts the connection's socket down (once); it stays in the table until libmicrohttpd closes it.
        mutating func shutDown(_ timer: ConnectionTimer) {
            guard !timer.shutDown.load(ordering: .acquiring) else { return }
            _ = shutdown(timer.socket, Int32(SHUT_RDWR))
            timer.shutDown.store(true, ordering: .releasing)
            timer.deadline.store(0, ordering: .relaxed)
            shutDownCount += 1
        }
    }

    /// The request timeout and the first request's (the shorter of the two that are on), in nanoseconds; 0: off.
    private let requestLimit: Int64
    private let firstRequestLimit: Int64
    /// Open connections (not counting those already shut down) from which a new one evicts the idlest.
    let evictionThreshold: Int
    /// The most connections one network may hold.
    let perNetwork: Int
    private let state = Mutex(State())
    /// What the timers' times count from.
    private let epoch = ContinuousClock.now

    /// Deadlines of `requestTimeout` per request and `firstRequestTimeout` for a new connection's first header
    /// (`.zero` turns either off); eviction from 90 % of `capacity` connections (at most `capacity - 1`); at most
    /// `perNetwork` connections from one network.
    init(requestTimeout: Duration, firstRequestTimeout: Duration, capacity: Int, perNetwork: Int = .max) {
        requestLimit = requestTimeout > .zero ? Self.nanoseconds(requestTimeout) : 0
        let first = [firstRequestTimeout, requestTimeout].filter { $0 > .zero }.min()
        firstRequestLimit = first.map(Self.nanoseconds) ?? 0
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
        let now = time()
        let timer = ConnectionTimer(
            socket: socket, network: PeerNetwork(socket: socket), openedAt: now,
            deadline: Self.deadline(now, firstRequestLimit))
        context.timer = timer
        state.withLock { state in
            state.entries[ObjectIdentifier(context)] = timer
            if let network = timer.network { state.networks[network, default: 0] += 1 }
        }
    }

    /// A request's header is in: the connection is busy, and owes the rest of its request by the request deadline.
    func requestBegan(_ context: ConnectionContext) {
        guard let timer = context.timer, !timer.shutDown.load(ordering: .acquiring) else { return }
        timer.markBusy()
        if timer.firstRequest.exchange(false, ordering: .relaxed) {
            let owed = timer.owedSince.load(ordering: .relaxed)
            timer.deadline.store(Self.deadline(owed, requestLimit), ordering: .releasing)
        }
    }

    /// The request is answered (its response is queued, or an event stream opened): no deadline until it ends.
    func answered(_ context: ConnectionContext) {
        guard let timer = context.timer else { return }
        timer.deadline.store(0, ordering: .releasing)
        timer.markBusy()
    }

    /// The response ended and the connection stays open: it owes its next request, and it is idle.
    func awaiting(_ context: ConnectionContext) {
        guard let timer = context.timer, !timer.shutDown.load(ordering: .acquiring) else { return }
        let now = time()
        timer.owedSince.store(now, ordering: .relaxed)
        timer.deadline.store(Self.deadline(now, requestLimit), ordering: .releasing)
        timer.markIdle(at: now)
    }

    /// The connection is closing; called before its socket is closed.
    func closed(_ context: ConnectionContext) {
        state.withLock { state in
            guard let timer = state.entries.removeValue(forKey: ObjectIdentifier(context)) else { return }
            if timer.shutDown.load(ordering: .acquiring) { state.shutDownCount -= 1 }
            if let network = timer.network {
                let left = (state.networks[network] ?? 1) - 1
                state.networks[network] = left > 0 ? left : nil
            }
        }
    }

    /// Shuts down every connection whose request is overdue; returns how many.
    @discardableResult
    func sweep(now: ContinuousClock.Instant = .now) -> Int {
        let now = time(now)
        return state.withLock { state in
            let overdue = state.entries.values.filter { timer in
                let deadline = timer.deadline.load(ordering: .acquiring)
                return deadline != 0 && deadline <= now && !timer.shutDown.load(ordering: .relaxed)
            }
            for timer in overdue { state.shutDown(timer) }
            return overdue.count
        }
    }

    /// A connection is being accepted: from ``evictionThreshold`` open connections on, shuts down the one idle the
    /// longest. Returns whether one was shut down.
    @discardableResult
    func evictIdlest() -> Bool {
        state.withLock { state in
            guard state.entries.count - state.shutDownCount >= evictionThreshold else { return false }
            // A connection found idle may begin a request before it is taken: then the next idlest is tried.
            for _ in 0..<state.entries.count {
                var idlest: (timer: ConnectionTimer, since: Int64)?
                for timer in state.entries.values where !timer.shutDown.load(ordering: .relaxed) {
                    let since = timer.idleSince.load(ordering: .acquiring)
                    if since > 0, since < idlest?.since ?? .max { idlest = (timer, since) }
                }
                guard let (timer, since) = idlest else { return false }
                if timer.takeForEviction(idleSince: since) {
                    state.shutDown(timer)
                    return true
                }
            }
            return false
        }
    }

    /// Nanoseconds from the epoch, plus one (never 0, which means "none").
    private func time(_ instant: ContinuousClock.Instant = .now) -> Int64 {
        Self.nanoseconds(instant - epoch) + 1
    }

    /// The deadline `limit` nanoseconds after `start`; 0 (none) when the limit is off.
    private static func deadline(_ start: Int64, _ limit: Int64) -> Int64 {
        limit > 0 ? start + limit : 0
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
