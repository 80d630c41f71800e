import Dispatch
import SwitchyardSessions
import Synchronization

/// The connections requests share: at most `size`, opened when first needed, each used by one caller at a time.
///
/// A call (waiting for a free connection, connecting, and every round trip) ends by one deadline, `timeout` from
/// its start. A connection that failed or ran out of time is closed, never handed out again: the pool opens a new
/// one when next needed. When one fails, the server has likely restarted (or hangs) and taken every connection
/// with it: the others are checked (one cheap round trip) before their next use, so that a write is not sent on a
/// connection already dead.
final class PostgresPool: Sendable {
    private struct Idle {
        var connections: [Handle] = []
        var closed = false
        /// Bumped when a connection fails: connections last checked before it are checked again.
        var failures = 0
    }

    /// A connection and the failure count when it was last known good; handed to one caller at a time.
    private final class Handle: @unchecked Sendable {
        let connection: PostgresConnection
        var checked: Int
        init(_ connection: PostgresConnection, checked: Int) {
            self.connection = connection
            self.checked = checked
        }
    }

    private let roundTrips: RoundTrips?
    private let url: String
    private let name: String
    private let idle = Mutex(Idle())
    private let free: DispatchSemaphore
    private let timeout: Duration
    private let breaker: PostgresBreaker

    /// A pool of at most `size` connections to `url`, named `name` in `pg_stat_activity`; a call ends within
    /// `timeout`; its connections' round trips are counted in `roundTrips`.
    init(
        url: String, size: Int, timeout: Duration, name: String = "switchyard", counting roundTrips: RoundTrips? = nil
    ) {
        self.roundTrips = roundTrips
        self.url = url
        self.name = name
        self.timeout = timeout
        breaker = PostgresBreaker(timeout: timeout)
        free = DispatchSemaphore(value: max(1, size))
    }

    /// Runs `body` on a connection, with the deadline its round trips must end by; a connection error marks the
    /// pool's others for a check. While the database does not answer (``breaker``), only one call at a time waits
    /// for it.
    func with<Value>(
        _ body: (PostgresConnection, ContinuousClock.Instant) throws(PostgresError) -> Value
    ) throws(ArchiveError) -> Value {
        let pass = try breaker.enter()
        let deadline = ContinuousClock.now + timeout
        let (seconds, attoseconds) = timeout.components
        let wait = DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        guard free.wait(timeout: wait) == .success else {
            let reason = "no database connection was free within \(PostgresError.seconds(timeout))"
            breaker.leave(pass, .timedOut(reason))
            throw .unavailable(reason)
        }
        defer { free.signal() }
        let handle: Handle
        do {
            handle = try checkOut(until: deadline)
        } catch {
            breaker.leave(pass, error.timedOut ? .timedOut(error.reason) : .failed)
            throw error.archiveError
        }
        do {
            let value = try body(handle.connection, deadline)
            checkIn(handle)
            breaker.leave(pass, .answered)
            return value
        } catch {
            if handle.connection.isUp {
                checkIn(handle)  // the server refused a statement: the connection is fine
            } else {
                idle.withLock { $0.failures += 1 }  // closed as `handle` goes
            }
            breaker.leave(
                pass, error.timedOut ? .timedOut(error.description) : handle.connection.isUp ? .answered : .failed)
            throw error.archiveError
        }
    }

    /// Why the database counts as not answering now (a call ran out of time, none answered since); nil otherwise.
    var silence: String? { breaker.silence }

    /// Closes every idle connection; later calls fail with ``ArchiveError/closed``.
    func close() {
        let connections = idle.withLock { idle in
            idle.closed = true
            defer { idle.connections = [] }
            return idle.connections
        }
        _ = connections  // released here: each closes its connection
    }

    private func checkOut(until deadline: ContinuousClock.Instant) throws(CheckOutError) -> Handle {
        let (found, failures) = try idle.withLock { idle throws(CheckOutError) in
            guard !idle.closed else { throw CheckOutError.closed }
            return (idle.connections.popLast(), idle.failures)
        }
        do throws(PostgresError) {
            if let found, found.connection.isUp {
                guard found.checked < failures else { return found }
                // Another connection failed since this one was last known good: check it (or replace it).
                if (try? found.connection.execute("SELECT 1", until: deadline)) != nil {
                    found.checked = failures
                    return found
                }
            }
            let made = try PostgresConnection(
                url: url, applicationName: name, timeout: timeout, until: deadline, counting: roundTrips)
            return Handle(made, checked: failures)
        } catch {
            if case .timeout = error { idle.withLock { $0.failures += 1 } }
            throw .database(error)
        }
    }

    /// Why no connection could be checked out.
    private enum CheckOutError: Error {
        case closed
        case database(PostgresError)

        var archiveError: ArchiveError {
            switch self {
            case .closed: .closed
            case .database(let error): error.archiveError
            }
        }

        var timedOut: Bool {
            if case .database(let error) = self { return error.timedOut }
            return false
        }

        var reason: String {
            switch self {
            case .closed: "the store is closed"
            case .database(let error): error.description
            }
        }
    }

    private func checkIn(_ handle: Handle) {
        idle.withLock { idle in
            guard !idle.closed else { return }
            idle.connections.append(handle)
        }
    }
}
