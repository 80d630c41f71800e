import Dispatch
import Synchronization

/// A send running on another thread (``BodyLimitTests/sendInBackground(_:on:)``): wait for it, then read how many
/// bytes went out.
final class BackgroundSend: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let sent = Atomic<Int>(0)

    /// Bytes sent, once ``wait()`` returned.
    var bytes: Int { sent.load(ordering: .sequentiallyConsistent) }

    /// Records the count and wakes the waiters.
    func finish(sent count: Int) {
        sent.store(count, ordering: .sequentiallyConsistent)
        done.signal()
    }

    /// Waits until the sender is done; returns at once after that.
    func wait() {
        done.wait()
        done.signal()
    }
}
