import Foundation
import Synchronization

/// Tells the other nodes what this one stored: `NOTIFY`s sent on a connection and a thread of their own, after
/// the writes' commits, many changes to one notification.
///
/// While one notification is on its way, the changes committed meanwhile gather for the next, and a woken announcer
/// waits ``gathering`` for more before it sends, so that a busy node sends a few hundred notifications a second
/// however many changes it makes (each is a transaction in PostgreSQL and wakes every listening node): at 2,300
/// changes a second, 0.87 round trips per change went to notifications without the wait. A notice lost on the way (the connection down, the node killed between commit and notice) is made up by
/// the nodes' periodic reconcile.
final class PostgresAnnouncer: Sendable {
    private struct Queue {
        var lines: [String] = []
        var stopped = false
    }

    private let url: String
    private let channel: String
    private let timeout: Duration
    private let queue = Mutex(Queue())
    private let roundTrips: RoundTrips?
    private let ready = DispatchSemaphore(value: 0)
    /// A notification's payload must stay under 8000 bytes.
    private static let payloadBytes = 7800

    /// Announces on `channel` of `url`; each connection attempt and notification ends within `timeout` (a batch
    /// that did not is dropped: the nodes reconcile). Its round trips are counted in `roundTrips`.
    init(url: String, channel: String, timeout: Duration, counting roundTrips: RoundTrips? = nil) {
        self.roundTrips = roundTrips
        self.url = url
        self.channel = channel
        self.timeout = timeout
        let thread = Thread { [self] in run() }
        thread.name = "switchyard-announcer"
        thread.start()
    }

    /// Queues notice lines (`c <id> <version>`, `r <id> …`); returns at once.
    func announce(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        let wake = queue.withLock { queue in
            defer { queue.lines.append(contentsOf: lines) }
            return queue.lines.isEmpty && !queue.stopped
        }
        if wake { ready.signal() }
    }

    /// Stops the thread (what is queued is dropped: the nodes reconcile).
    func stop() {
        queue.withLock { $0.stopped = true }
        ready.signal()
    }

    /// How long a woken announcer lets changes gather before it sends: what a stream on another node waits more.
    static let gathering = Duration.milliseconds(5)

    private func run() {
        var connection: PostgresConnection?
        while true {
            ready.wait()
            let (seconds, attoseconds) = Self.gathering.components
            Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
            while let batch = next() {
                do throws(PostgresError) {
                    if connection == nil || connection?.isUp == false {
                        connection = try PostgresConnection(
                            url: url, applicationName: "switchyard-announcer", timeout: timeout,
                            counting: roundTrips)
                    }
                    for payload in batch {
                        _ = try connection?.query(PostgresStatements.notify, [.text(channel), .text(payload)])
                    }
                } catch {
                    connection = nil  // dropped: the nodes reconcile; the next batch connects again
                }
            }
            if queue.withLock({ $0.stopped }) { return }
        }
    }

    /// Everything queued, as payloads of whole lines under the size limit; nil when nothing is queued.
    private func next() -> [String]? {
        let lines = queue.withLock { queue -> [String] in
            defer { queue.lines = [] }
            return queue.stopped ? [] : queue.lines
        }
        guard !lines.isEmpty else { return nil }
        var payloads: [String] = []
        var current = ""
        for line in lines {
            if !current.isEmpty, current.utf8.count + 1 + line.utf8.count > Self.payloadBytes {
                payloads.append(current)
                current = ""
            }
            current += current.isEmpty ? line : "\n" + line
        }
        if !current.isEmpty { payloads.append(current) }
        return payloads
    }
}
