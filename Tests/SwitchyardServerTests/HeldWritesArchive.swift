import Foundation
import SwitchyardSessions
import Synchronization

/// An archive around a real one that takes changes' writes as a group commit does (``SessionArchive/submit(_:)``
/// returns at once) and holds each until the test lets it through, one at a time and in the order they came: for
/// what a session does while its writes are in flight.
final class HeldWritesArchive: ForwardingArchive {
    /// A held write: settled when the test lets it through.
    private final class Held: ArchiveSubmission {
        private let settled = DispatchGroup()
        private let result = Mutex<Result<Void, ArchiveError>?>(nil)

        init() { settled.enter() }

        var outcome: Result<Void, ArchiveError>? { result.withLock { $0 } }
        func finish() -> Result<Void, ArchiveError> { awaitOutcome() }

        func awaitOutcome() -> Result<Void, ArchiveError> {
            settled.wait()
            return outcome ?? .failure(.closed)
        }

        func settle(_ outcome: Result<Void, ArchiveError>) {
            result.withLock { $0 = outcome }
            settled.leave()
        }
    }

    let inner: any SessionArchive
    var forwarded: any SessionArchive { inner }
    /// Commits the writes in the order they were submitted, each once let through.
    private let committer = DispatchQueue(label: "switchyard.test.held-writes")
    private let passes = DispatchSemaphore(value: 0)
    /// How many writes were submitted; whether the next one let through fails.
    private let counts = Mutex((submitted: 0, failNext: false))

    init(_ inner: any SessionArchive) {
        self.inner = inner
    }

    func submit(_ writes: [ArchiveWrite], after previous: (any ArchiveSubmission)?) -> any ArchiveSubmission {
        let held = Held()
        counts.withLock { $0.submitted += 1 }
        committer.async { [self] in
            passes.wait()
            let fails = counts.withLock { counts in
                defer { counts.failNext = false }
                return counts.failNext
            }
            // The writes before were settled first (one queue, in order).
            if case .failure? = previous?.outcome { return held.settle(.failure(.builtOnFailure)) }
            held.settle(
                fails
                    ? .failure(.unavailable("I/O error (simulated)"))
                    : Result { () throws(ArchiveError) in try inner.apply(writes) })
        }
        return held
    }

    /// How many writes were submitted so far.
    var submitted: Int { counts.withLock { $0.submitted } }

    /// Lets the oldest write held (or the next one submitted) through; `failing`: it is not stored, and fails.
    func release(failing: Bool = false) {
        if failing { counts.withLock { $0.failNext = true } }
        passes.signal()
    }

    /// Waits until `count` writes were submitted; false if they were not within `seconds`.
    func awaitSubmitted(_ count: Int, seconds: Double = 30) -> Bool {
        let deadline = DispatchTime.now() + seconds
        while submitted < count {
            guard DispatchTime.now() < deadline else { return false }
            usleep(2_000)
        }
        return true
    }
}
