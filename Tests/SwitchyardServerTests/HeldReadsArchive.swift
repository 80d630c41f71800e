import Foundation
import SwitchyardSessions
import Synchronization

/// A shared archive (around a ``MemorySessionArchive`` of several nodes) whose whole-session reads can be held one
/// by one after they read, and let go in the order they came: for races between two read-backs of one session.
/// Version checks (`session(_:unlessAt:reply:)`) are never held.
final class HeldReadsArchive: SharedSessionArchive {
    let inner: MemorySessionArchive
    private let held = Mutex((holding: false, waiting: [DispatchSemaphore]()))
    private let arrived = DispatchSemaphore(value: 0)

    init(_ inner: MemorySessionArchive) {
        self.inner = inner
    }

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
    var isDurable: Bool { inner.isDurable }
    var registry: (any AppRegistryStore)? { inner.registry }
    func apply(_ writes: [ArchiveWrite]) throws(ArchiveError) { try inner.apply(writes) }
    func history(of session: String, after: Int?, limit: Int) throws(ArchiveError) -> [StoredChange] {
        try inner.history(of: session, after: after, limit: limit)
    }
    func state(of session: String, at version: Int) throws(ArchiveError) -> [UInt8]? {
        try inner.state(of: session, at: version)
    }
    func creation(_ key: String) throws(ArchiveError) -> StoredReply? { try inner.creation(key) }
    func version(of session: String) throws(ArchiveError) -> Int? { try inner.version(of: session) }
    func sessionIDs(ofApp app: String, after: String?, limit: Int) throws(ArchiveError) -> [String] {
        try inner.sessionIDs(ofApp: app, after: after, limit: limit)
    }
    func expire(usedBefore: Double, unusedBefore: Double) throws(ArchiveError) -> [String] {
        try inner.expire(usedBefore: usedBefore, unusedBefore: unusedBefore)
    }
    func close() { inner.close() }
}
