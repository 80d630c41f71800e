/// What one turn of the ``ChangePipeline`` under the session's lock leaves to do once the lock is released.
enum ChangeTurn {
    /// The answer, and what follows it.
    case answered(ChangeAnswer, Aftermath)
    /// Run the change again: the copy caught up with what another node stored.
    case again
    /// The store refused the write: another node changed the session first (the copy catches up next).
    case conflict
    /// The copy left memory: read the session back from the store, then run the change on it.
    case moved
    /// Wait for the session's writes in flight, then run the change (it may not run ahead of them). Not an attempt.
    case wait(any ArchiveSubmission)
    /// An answer that stands once a write is durable (`transition`: the transition it counts then, and whether it
    /// was accepted).
    case pending(ChangeAnswer, PendingWrite, transition: Bool?)

    /// What is left to do once the session's lock is released, after an answer.
    enum Aftermath {
        case none, broadcast
        /// The session's copy in memory must go (its change was not stored, or app code changed data without a
        /// commit): the store has it as it was acknowledged.
        case evict
    }

    /// The write an answer waits for.
    enum PendingWrite {
        /// The change's own write, queued while the change ran ahead of the store: finish it.
        case own(any ArchiveSubmission)
        /// The newest of the writes in flight the change ran on (it made no write of its own, or could not).
        case earlier(any ArchiveSubmission)
    }

    /// Where the pipeline's loop goes after a turn.
    enum Next {
        case answered(ChangeAnswer)
        case waited
        case again
        case moved
    }
}
