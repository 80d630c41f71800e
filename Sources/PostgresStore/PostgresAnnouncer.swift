import Foundation
import Synchronization

/// Tells the other nodes what this one stored: `NOTIFY`s sent on a connection and a thread of their own, after
/// the writes' commits, many changes to one notification.
///
/// While one notification is on its way, the changes committed meanwhile gather for the next: a woken announcer
/// waits ``gathering`` for more before it sends, and changes committed while one was sent wait ``spacing`` more, so
/// that a busy node sends about 50 a second however many changes it makes (each is a transaction in PostgreSQL and
/// wakes every listening node). Round trips per change at about 3,000 changes a second on one node: 1.87 without
/// the wait, 1.14 with it, 1.04 with the spacing too. A notice lost on the way (the connection down, the node killed
/// between commit and notice) is made up by the nodes' periodic reconcile.
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
            guard !queue.stopped else { return false }  // stopped: nothing is sent any more
            defer { queue.lines.append(contentsOf: lines) }
            return queue.lines.isEmpty
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
    /// How long the changes committed while a notification was sent gather before the next one (what a stream on
    /// another node may wait more when its node is busy): without it a busy node sent a notification per round trip
    /// (0.13–0.21 per change), each waking every listening node. A quiet node, whose changes come one at a time,
    /// still notifies ``gathering`` after each.
    static let spacing = Duration.milliseconds(20)

    private func run() {
        var connection: PostgresConnection?
        while true {
            ready.wait()
            Self.pause(Self.gathering)
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
                // Changes committed while this one was sent: the node is busy, so they gather for `spacing`.
                if queue.withLock({ !$0.lines.isEmpty && !$0.stopped }) { Self.pause(Self.spacing) }
            }
            if queue.withLock({ $0.stopped }) { return }
        }
    }

    private static func pause(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
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
