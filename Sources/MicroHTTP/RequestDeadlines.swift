internal import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Gives every request a deadline for its header and body, on top of libmicrohttpd's inactivity
/// timeout (which a client sending one byte every few seconds never trips).
///
/// A connection owes a request from the moment it opens, or its previous response ended, until its
/// response is queued. ``sweep(now:)`` shuts down the socket of a connection whose request is
/// overdue; libmicrohttpd then sees the end of input and closes it (freeing its connection slot).
/// The socket is shut down while the registry's lock is held, and a connection leaves the registry
/// (``closed(_:)``) before libmicrohttpd closes its socket, so a socket number is never mistaken for
/// another connection's.
final class RequestDeadlines: Sendable {
    private struct Owed {
        let socket: Int32
        let deadline: ContinuousClock.Instant
    }

    private let timeout: Duration
    private let owed = Mutex<[ObjectIdentifier: Owed]>([:])

    /// Deadlines `timeout` after a connection starts owing a request; `.zero` turns them off.
    init(timeout: Duration) {
        self.timeout = timeout
    }

    /// The connection `context` (socket `socket`) now owes a request.
    func awaiting(_ context: ConnectionContext, socket: Int32) {
        guard timeout > .zero, socket >= 0 else { return }
        let entry = Owed(socket: socket, deadline: .now + timeout)
        owed.withLock { $0[ObjectIdentifier(context)] = entry }
    }

    /// The connection's request is complete (its response is queued): no deadline until it ends.
    func answered(_ context: ConnectionContext) {
        guard timeout > .zero else { return }
        _ = owed.withLock { $0.removeValue(forKey: ObjectIdentifier(context)) }
    }

    /// The connection is closing; called before its socket is closed.
    func closed(_ context: ConnectionContext) {
        answered(context)
    }

    /// Shuts down every connection whose request is overdue; returns how many.
    @discardableResult
    func sweep(now: ContinuousClock.Instant = .now) -> Int {
        owed.withLock { owed in
            let overdue = owed.filter { $0.value.deadline <= now }
            for (key, entry) in overdue {
                _ = shutdown(entry.socket, Int32(SHUT_RDWR))
                owed[key] = nil
            }
            return overdue.count
        }
    }
}
