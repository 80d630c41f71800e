import Dispatch
import SwitchyardSessions
import Synchronization

/// The archive's writes, committed in groups: callers queue their batches, and the caller at the front of the
/// queue leads: it commits every batch waiting (up to ``maxBatches``) in one transaction, each inside its own
/// savepoint so that one failing batch does not fail the others, then hands the lead to the next caller. A caller
/// queues its batch (``submit(_:after:)``) and then finishes its ticket, which returns once the batch is committed (or
/// not); between the two it may do other work (a session's next change). Batches are committed in queue order.
///
/// No writer thread: a lone caller commits its own batch at once (no hand-off between threads), and under load the
/// callers that arrive while a commit runs share the next one.
final class SQLiteWriter: Sendable {
    /// A batch waiting for its commit: what ``submit(_:after:)`` returns, finished by the thread that submitted it.
    final class Ticket: ArchiveSubmission {
        let writes: [ArchiveWrite]
        /// Signalled when the batch is committed (or failed), or when this caller is to lead.
        let wake = DispatchSemaphore(value: 0)
        /// Left once the outcome is set: what other threads wait on.
        private let settled = DispatchGroup()
        private let result = Mutex<Result<Void, ArchiveError>?>(nil)
        /// The writer whose queue it is in; nil when it was settled before it was queued.
        private let writer: SQLiteWriter?
        /// Whether it was first in the queue: its caller commits without waiting to be woken.
        fileprivate let leads: Bool
        /// The batch it builds on (queued before it), until this one is settled: if that one fails, this one
        /// fails unapplied. Let go once settled, so that a busy session's tickets do not keep each other alive.
        private let basis: Mutex<Ticket?>
        fileprivate var after: Ticket? { basis.withLock { $0 } }

        fileprivate init(_ writes: [ArchiveWrite], writer: SQLiteWriter, leads: Bool, after: Ticket?) {
            self.writes = writes
            self.writer = writer
            self.leads = leads
            basis = Mutex(after)
            settled.enter()
        }

        /// A batch settled before it was queued (refused, or empty).
        fileprivate init(settled outcome: Result<Void, ArchiveError>) {
            writes = []
            writer = nil
            leads = false
            basis = Mutex(nil)
            result.withLock { $0 = outcome }
        }

        var outcome: Result<Void, ArchiveError>? { result.withLock { $0 } }

        func finish() -> Result<Void, ArchiveError> {
            guard let writer else { return outcome ?? .failure(.closed) }
            if !leads { wake.wait() }
            if let outcome { return outcome }
            writer.lead(from: self)
            return outcome ?? .failure(.closed)
        }

        func awaitOutcome() -> Result<Void, ArchiveError> {
            settled.wait()
            return outcome ?? .failure(.closed)
        }

        /// Sets the outcome and lets every thread waiting for it go on.
        fileprivate func settle(_ outcome: Result<Void, ArchiveError>) {
            result.withLock { $0 = outcome }
            basis.withLock { $0 = nil }
            settled.leave()
        }
    }

    private struct Queue {
        var waiting: [Ticket] = []
        var closed = false
        var commits = 0
        var batches = 0
    }

    /// The most batches one commit takes.
    private static let maxBatches = 256

    private let queue = Mutex(Queue())
    /// The connection and its statements: used only by the caller that leads, one at a time.
    private let statements: LeaderState
    /// The disk's room, and whether it is full.
    let space: SQLiteSpace
    /// Whether a check found the store damaged.
    let integrity: SQLiteIntegrity

    init(
        connection: SQLiteConnection, limits: StoreLimits, space: SQLiteSpace, integrity: SQLiteIntegrity
    ) throws(ArchiveError) {
        self.space = space
        self.integrity = integrity
        do {
            statements = LeaderState(try SQLiteWrites(connection, limits: limits))
        } catch {
            throw error.archiveError
        }
    }

    /// Commits `writes`; returns once they are durable.
    func apply(_ writes: [ArchiveWrite]) throws(ArchiveError) {
        try submit(writes).finish().get()
    }

    /// Queues `writes` behind the batches already waiting and returns at once; the caller then finishes the
    /// ticket (``Ticket/finish()``), which commits them (leading the group when it is at the front). Writes queued
    /// `after` another ticket fail unapplied if that one fails.
    func submit(_ writes: [ArchiveWrite], after previous: Ticket? = nil) -> Ticket {
        guard !writes.isEmpty else { return Ticket(settled: .success(())) }
        if space.isFull, writes.contains(where: Self.grows), !space.recovered() {
            return Ticket(settled: .failure(.unavailable(Self.diskFull)))
        }
        if let damage = integrity.damaged, writes.contains(where: Self.grows) {
            return Ticket(settled: .failure(.unreadable(damage)))
        }
        return queue.withLock { queue in
            guard !queue.closed else { return Ticket(settled: .failure(.closed)) }
            let ticket = Ticket(writes, writer: self, leads: queue.waiting.isEmpty, after: previous)
            queue.waiting.append(ticket)
            return ticket
        }
    }

    /// Commits the batches at the front of the queue (the leader's first), wakes their callers, and hands the lead
    /// to the next caller waiting.
    fileprivate func lead(from leader: Ticket) {
        let group = queue.withLock { Array($0.waiting.prefix(Self.maxBatches)) }
        let bases = group.map { ticket -> Basis in
            guard let after = ticket.after else { return .none }
            if let index = group.firstIndex(where: { $0 === after }) { return .batch(index) }
            if case .failure = after.outcome { return .failed }
            return .none
        }
        var outcomes = Self.commit(group.map(\.writes), bases: bases, statements.writes)
        if outcomes.contains(where: Self.filledTheDisk), space.diskFilled() {
            // The reserve is free now: the deletions and touches of the group may fit in it.
            let retried = group.indices.filter { !group[$0].writes.contains(where: Self.grows) && outcomes[$0].failed }
            let again = Self.commit(
                retried.map { group[$0].writes }, bases: retried.map { _ in .none }, statements.writes)
            for (index, outcome) in zip(retried, again) {
                outcomes[index] = outcome
            }
        }
        if space.isFull, outcomes.contains(where: \.succeeded) { statements.writes.giveBackFreePages() }
        let next = queue.withLock { queue in
            // Settled before they leave the queue: a batch queued after one of them then finds its outcome.
            for (ticket, outcome) in zip(group, outcomes) {
                ticket.settle(
                    outcome.mapError {
                        $0.primary == Self.full && space.isFull ? .unavailable(Self.diskFull) : $0.archiveError
                    })
            }
            queue.waiting.removeFirst(group.count)
            queue.commits += 1
            queue.batches += group.count
            return queue.waiting.first
        }
        for ticket in group where ticket !== leader { ticket.wake.signal() }
        next?.wake.signal()
    }

    var isClosed: Bool { queue.withLock { $0.closed } }

    /// What a client's problem never shows but the log and readiness do.
    static let diskFull =
        "the disk is full: changes and new sessions are refused until it has room again; reading, deleting and "
        + "expiring sessions go on"

    /// Whether a write makes the store larger (a removal frees room; a touch rewrites a row in place).
    private static func grows(_ write: ArchiveWrite) -> Bool {
        switch write {
        case .create, .change: true
        case .remove, .touch: false
        }
    }

    private static let full: Int32 = 13  // SQLITE_FULL

    private static func filledTheDisk(_ outcome: Result<Void, SQLiteError>) -> Bool {
        if case .failure(let error) = outcome { return error.primary == full }
        return false
    }

    var statistics: (commits: Int, batches: Int) {
        queue.withLock { ($0.commits, $0.batches) }
    }

    /// Refuses later submits (``ArchiveError/closed``); batches already queued are still committed by their callers.
    func close() {
        queue.withLock { $0.closed = true }
    }

    /// What a batch of a group builds on (``submit(_:after:)``).
    private enum Basis {
        case none
        /// A batch that failed in an earlier group.
        case failed
        /// The batch at this index of the group.
        case batch(Int)
    }

    /// What a batch built on a batch that failed fails with, unapplied.
    private static let builtOnFailure = SQLiteError.conflict("the write it builds on was not stored")

    /// One transaction for every batch (except those built on a batch that failed); a batch is acknowledged only if
    /// the commit succeeded.
    private static func commit(
        _ batches: [[ArchiveWrite]], bases: [Basis], _ statements: SQLiteWrites
    ) -> [Result<Void, SQLiteError>] {
        guard !batches.isEmpty else { return [] }
        if batches.count == 1, case .failed = bases[0] { return [.failure(builtOnFailure)] }
        let connection = statements.connection
        func failAll(_ error: SQLiteError) -> [Result<Void, SQLiteError>] {
            if connection.inTransaction { try? statements.transaction.rollback.run() }
            for writes in batches { statements.rolledBack(writes) }
            return batches.map { _ in .failure(error) }
        }
        do {
            try statements.begin()
        } catch {
            return failAll(error)
        }
        var outcomes: [Result<Void, SQLiteError>] = []
        if batches.count == 1 {
            // Alone in its commit: no savepoint needed, its failure is the transaction's.
            do {
                try statements.apply(batches[0])
                outcomes.append(.success(()))
            } catch {
                return failAll(error)
            }
        } else {
            for (writes, basis) in zip(batches, bases) {
                let builtOnFailure: Bool =
                    switch basis {
                    case .none: false
                    case .failed: true
                    case .batch(let index): outcomes[index].failed
                    }
                if builtOnFailure {
                    outcomes.append(.failure(Self.builtOnFailure))
                    continue
                }
                do {
                    try statements.transaction.savepoint.run()
                    try statements.apply(writes)
                    try statements.transaction.release.run()
                    outcomes.append(.success(()))
                } catch {
                    // SQLite may have rolled the whole transaction back (e.g. on a full disk): then nothing is stored.
                    guard connection.inTransaction else { return failAll(error) }
                    do {
                        try statements.transaction.rollbackToSavepoint.run()
                        try statements.transaction.release.run()
                    } catch {
                        // The failed batch could not be taken out alone: commit none of the group.
                        return failAll(error)
                    }
                    statements.rolledBack(writes)
                    outcomes.append(.failure(error))
                }
            }
        }
        do {
            try statements.transaction.commit.run()
        } catch {
            return failAll(error)
        }
        return outcomes
    }
}

extension Result {
    fileprivate var failed: Bool {
        if case .failure = self { return true }
        return false
    }

    fileprivate var succeeded: Bool { !failed }
}

/// The writer's connection and statements, used only by the caller that leads (leadership passes from one caller
/// to the next through the queue, so two never use them at once).
private final class LeaderState: @unchecked Sendable {
    let writes: SQLiteWrites
    init(_ writes: SQLiteWrites) { self.writes = writes }
}
