import Dispatch
import SwitchyardServer
import Synchronization

/// The connections requests share: at most `size`, opened when first needed, each used by one caller at a time.
///
/// A connection found down is reconnected before use. When one fails, the server has likely restarted and taken
/// every connection with it: the others are checked (one cheap round trip) before their next use, so that a
/// write is not sent on a connection already dead.
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

    private let url: String
    private let idle = Mutex(Idle())
    private let free: DispatchSemaphore
    private let wait: DispatchTimeInterval

    /// A pool of at most `size` connections to `url`; a caller waits `wait` at most for one.
    init(url: String, size: Int, wait: DispatchTimeInterval = .seconds(10)) {
        self.url = url
        free = DispatchSemaphore(value: max(1, size))
        self.wait = wait
    }

    /// Runs `body` on a connection; a connection error marks the pool's others for a check.
    func with<Value>(
        _ body: (PostgresConnection) throws(PostgresError) -> Value
    ) throws(ArchiveError) -> Value {
        guard free.wait(timeout: .now() + wait) == .success else {
            throw .unavailable("no PostgreSQL connection was free within the wait")
        }
        defer { free.signal() }
        let handle = try checkOut()
        do {
            let value = try body(handle.connection)
            checkIn(handle)
            return value
        } catch {
            checkIn(handle, failed: !handle.connection.isUp)
            if case .connection = error { idle.withLock { $0.failures += 1 } }
            throw error.archiveError
        }
    }

    /// Closes every idle connection; later calls fail with ``ArchiveError/closed``.
    func close() {
        let connections = idle.withLock { idle in
            idle.closed = true
            defer { idle.connections = [] }
            return idle.connections
        }
        _ = connections  // released here: each closes its connection
    }

    private func checkOut() throws(ArchiveError) -> Handle {
        let (handle, failures) = try idle.withLock { idle throws(ArchiveError) in
            guard !idle.closed else { throw ArchiveError.closed }
            return (idle.connections.popLast(), idle.failures)
        }
        guard let handle else {
            do {
                return Handle(try PostgresConnection(url: url, applicationName: "switchyard"), checked: failures)
            } catch {
                throw error.archiveError
            }
        }
        do {
            if !handle.connection.isUp {
                try handle.connection.reconnect()
            } else if handle.checked < failures {
                // Another connection failed since this one was last known good: check it (and reconnect).
                do {
                    try handle.connection.execute("SELECT 1")
                } catch {
                    try handle.connection.reconnect()
                }
            }
            handle.checked = failures
            return handle
        } catch {
            throw error.archiveError
        }
    }

    private func checkIn(_ handle: Handle, failed: Bool = false) {
        idle.withLock { idle in
            guard !idle.closed else { return }
            if failed { handle.checked = -1 }
            idle.connections.append(handle)
        }
    }
}
