import Foundation
import SwitchyardSessions
import Synchronization

/// A shared archive (around a ``MemorySessionArchive`` of several nodes) whose whole-session reads can be held one
/// by one after they read, and let go in the order they came: for races between two read-backs of one session.
/// Version checks (`session(_:unlessAt:reply:)`) are never held.
final class HeldReadsArchive: SharedSessionArchive, ForwardingArchive {
    let inner: MemorySessionArchive
    private let held = Mutex((holding: false, waiting: [DispatchSemaphore]()))
    private let arrived = DispatchSemaphore(value: 0)

    init(_ inner: MemorySessionArchive) {
        self.inner = inner
    }

    var forwarded: any SessionArchive { inner }
    var registry: (any AppRegistryStore)? { inner.registry }

    /// From now on each whole-session read waits after reading, until let go.
    func hold() { held.withLock { $0.holding = true } }

    /// Waits until a read is held; false if none was within `seconds`.
    func awaitHeldRead(seconds: Int = 30) -> Bool {
        arrived.wait(timeout: .now() + .seconds(seconds)) == .success
    }

    /// Lets the oldest held read go on.
    func releaseOldest() {
        held.withLock { $0.waiting.isEmpty ? nil : $0.waiting.removeFirst() }?.signal()
    }

    /// Lets every held read go on, and holds no more.
    func stopHolding() {
        let waiting = held.withLock { held in
            held.holding = false
            defer { held.waiting = [] }
            return held.waiting
        }
        for read in waiting { read.signal() }
    }

    func session(_ id: String) throws(ArchiveError) -> StoredSession? {
        let read = try inner.session(id)
        let wait = held.withLock { held -> DispatchSemaphore? in
            guard held.holding else { return nil }
            let gate = DispatchSemaphore(value: 0)
            held.waiting.append(gate)
            return gate
        }
        if let wait {
            arrived.signal()
            wait.wait()
        }
        return read
    }

    func session(_ id: String, unlessAt version: Int, reply key: String?) throws(ArchiveError) -> StoredSessionRead {
        try inner.session(id, unlessAt: version, reply: key)
    }

    func versions(of sessions: [String]) throws(ArchiveError) -> [String: Int] { try inner.versions(of: sessions) }
    func follow(_ observer: @escaping @Sendable (ArchiveNotice) -> Void) { inner.follow(observer) }
}
