import Foundation
import SwitchyardSessions
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A connection of its own that `LISTEN`s on the archive's channel, on a thread of its own, and passes what it
/// hears to the observers as ``ArchiveNotice``s, in order.
///
/// Notifications sent while it is disconnected are lost: when it connects again it says
/// ``ArchiveNotice/resumed``, and the server reconciles. It reconnects by itself (after 0.1 s, then up to every
/// 2 s), and its connection shows as `switchyard-listener` in `pg_stat_activity`. A quiet connection is asked a
/// `SELECT 1` every ``pingInterval``: a server that hangs, or that a partition cut off without a word, keeps a
/// connection open that never speaks again, and is given up when it does not answer within the timeout.
final class PostgresListener: Sendable {
    private struct State {
        var observers: [@Sendable (ArchiveNotice) -> Void] = []
        var started = false
        var stopped = false
        var thread: pthread_t?
    }

    private let url: String
    private let channel: String
    private let timeout: Duration
    private let state = Mutex(State())

    /// How long the connection may stay quiet before the server is asked whether it is still there.
    static let pingInterval = Duration.seconds(2)

    /// Listens on `channel` of `url`; each connection attempt and round trip ends within `timeout`.
    init(url: String, channel: String, timeout: Duration) {
        self.url = url
        self.channel = channel
        self.timeout = timeout
    }

    /// Adds an observer; the first one starts the listening thread.
    func add(_ observer: @escaping @Sendable (ArchiveNotice) -> Void) {
        let start = state.withLock { state in
            state.observers.append(observer)
            defer { state.started = true }
            return !state.started && !state.stopped
        }
        guard start else { return }
        let thread = Thread { [self] in run() }
        thread.name = "switchyard-listener"
        thread.start()
    }

    /// Stops listening (within a quarter of a second).
    func stop() {
        state.withLock { $0.stopped = true }
    }

    private var stopped: Bool { state.withLock { $0.stopped } }

    /// Whether the caller runs on the listening thread (the observers' catch-up reads do).
    var isCurrentThread: Bool {
        guard let thread = state.withLock({ $0.thread }) else { return false }
        return pthread_equal(thread, pthread_self()) != 0
    }

    private func run() {
        state.withLock { $0.thread = pthread_self() }
        var delay = 0.1
        var first = true
        while !stopped {
            do throws(PostgresError) {
                let connection = try PostgresConnection(
                    url: url, applicationName: "switchyard-listener", timeout: timeout)
                try connection.execute("LISTEN \(channel)")
                delay = 0.1
                // What was sent while nobody listened is lost: the server reconciles (not needed the first time:
                // nothing streams yet).
                if !first { tell([.resumed]) }
                first = false
                try listen(on: connection)
            } catch {
                // Down or refused: try again shortly.
            }
            if stopped { return }
            Thread.sleep(forTimeInterval: delay)
            delay = min(2, delay * 2)
        }
    }

    /// Waits for notifications until the connection fails or the listener stops.
    private func listen(on connection: PostgresConnection) throws(PostgresError) {
        var heard = ContinuousClock.now
        while !stopped {
            var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 250)
            if ready < 0, errno == EINTR { continue }
            if ready != 0 {
                try connection.consumeInput()
                heard = .now
            } else if heard.duration(to: .now) >= Self.pingInterval {
                // Notifications that arrive meanwhile are kept for notifications().
                try connection.execute("SELECT 1")
                heard = .now
            }
            let notices = connection.notifications().filter { $0.channel == channel }.flatMap {
                Self.notices($0.payload)
            }
            if !notices.isEmpty { tell(notices) }
            guard connection.isUp else { throw .connection("the listening connection closed") }
        }
    }

    private func tell(_ notices: [ArchiveNotice]) {
        // Once stopped (the archive closed), nothing more is told.
        let observers = state.withLock { $0.stopped ? [] : $0.observers }
        for notice in notices {
            for observer in observers { observer(notice) }
        }
    }

    /// One notice per line: `c <id> <version>`, a change; `r <id> [<id> …]`, sessions removed.
    static func notices(_ payload: String) -> [ArchiveNotice] {
        payload.split(separator: "\n").flatMap { line -> [ArchiveNotice] in
            let words = line.split(separator: " ").map(String.init)
            switch words.first {
            case "c":
                guard words.count == 3, let version = Int(words[2]) else { return [] }
                return [.changed(session: words[1], version: version)]
            case "r":
                return words.dropFirst().map { .removed(session: $0) }
            default:
                return []
            }
        }
    }
}
