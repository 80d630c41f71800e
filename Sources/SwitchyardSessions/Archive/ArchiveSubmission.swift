/// Writes handed to an archive whose commit the caller waits for later (``SessionArchive/submit(_:after:)``): a session
/// can go on computing its next change while the store commits the one before.
///
/// The thread that submitted the writes calls ``finish()`` exactly once (an archive that commits in groups may have
/// that thread commit them, with the writes queued behind); any thread may wait for the outcome with
/// ``awaitOutcome()``.
public protocol ArchiveSubmission: AnyObject, Sendable {
    /// The outcome once it is known: nil while the writes wait for their commit.
    var outcome: Result<Void, ArchiveError>? { get }
    /// Returns once the writes are durable (success) or not stored (failure: none of them is), taking part in the
    /// commit when it falls to this caller. Called once, by the thread that submitted the writes.
    func finish() -> Result<Void, ArchiveError>
    /// Waits for the outcome without taking part in the commit (the writes of another thread).
    func awaitOutcome() -> Result<Void, ArchiveError>
}

extension ArchiveError {
    /// What writes submitted after a submission that failed fail with (``SessionArchive/submit(_:after:)``).
    public static let builtOnFailure = ArchiveError.conflict("the write it builds on was not stored")
}

/// Writes an archive stored (or refused) at once, when they were submitted.
final class SettledSubmission: ArchiveSubmission {
    private let result: Result<Void, ArchiveError>

    init(_ result: Result<Void, ArchiveError>) {
        self.result = result
    }

    var outcome: Result<Void, ArchiveError>? { result }
    func finish() -> Result<Void, ArchiveError> { result }
    func awaitOutcome() -> Result<Void, ArchiveError> { result }
}
