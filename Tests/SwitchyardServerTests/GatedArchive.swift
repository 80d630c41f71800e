import Dispatch
import SwitchyardSessions
import Synchronization

/// An archive around a real one whose session reads or expiries can be held once done, before they answer (as a slow or frozen database
/// holds them): for what other requests do meanwhile.
final class GatedArchive: SessionArchive {
    /// Holds the calls of one kind while closed.
    final class Gate: Sendable {
        private let closed = Atomic<Bool>(false)
        private let entered = DispatchSemaphore(value: 0)
        private let opened = DispatchSemaphore(value: 0)

        /// The next call waits in the gate until ``open()``.
        func close() { closed.store(true, ordering: .sequentiallyConsistent) }

        /// Waits until a call waits in the gate; false if none did within `seconds`.
        func awaitCaller(seconds: Int = 30) -> Bool {
            entered.wait(timeout: .now() + .seconds(seconds)) == .success
        }

        /// Lets the waiting call go on (and the later ones through).
        func open() {
            if closed.exchange(false, ordering: .sequentiallyConsistent) { opened.signal() }
        }

        fileprivate func pass() {
            guard closed.load(ordering: .sequentiallyConsistent) else { return }
            entered.signal()
            opened.wait()
        }
    }

    let inner: any SessionArchive
    /// Session reads.
    let reads = Gate()
    /// Expiries.
    let expiries = Gate()

    init(_ inner: any SessionArchive) {
        self.inner = inner
    }

    var isDurable: Bool { inner.isDurable }

    var condition: ArchiveCondition { inner.condition }

    func apply(_ writes: [ArchiveWrite]) throws(ArchiveError) { try inner.apply(writes) }

    func session(_ id: String) throws(ArchiveError) -> StoredSession? {
        let read = try inner.session(id)
        reads.pass()  // read, not yet answered
        return read
    }

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
        let ended = try inner.expire(usedBefore: usedBefore, unusedBefore: unusedBefore)
        expiries.pass()  // done, not yet answered
        return ended
    }

    func close() { inner.close() }
}
