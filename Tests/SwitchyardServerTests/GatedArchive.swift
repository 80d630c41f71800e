import Dispatch
import SwitchyardSessions
import Synchronization

/// An archive around a real one whose session reads or expiries can be held once done, before they answer (as a slow or frozen database
/// holds them): for what other requests do meanwhile.
final class GatedArchive: ForwardingArchive {
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

    var forwarded: any SessionArchive { inner }

    func session(_ id: String) throws(ArchiveError) -> StoredSession? {
        let read = try inner.session(id)
        reads.pass()  // read, not yet answered
        return read
    }

    func expire(usedBefore: Double, unusedBefore: Double) throws(ArchiveError) -> [String] {
        let ended = try inner.expire(usedBefore: usedBefore, unusedBefore: unusedBefore)
        expiries.pass()  // done, not yet answered
        return ended
    }
}
