import Foundation
import SwitchyardJSON
import SwitchyardServer
import Synchronization

/// The archive's single writer: a thread that takes every batch waiting and commits them in one transaction
/// (group commit), each batch inside its own savepoint so that one failing batch does not fail the others.
/// A caller's `submit` returns once its batch is committed, or throws if it is not.
final class SQLiteWriter: Sendable {
    /// A batch waiting for its commit.
    private final class Ticket: Sendable {
        let writes: [ArchiveWrite]
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<Void, ArchiveError>>(.failure(.closed))

        init(_ writes: [ArchiveWrite]) { self.writes = writes }

        func finish(_ outcome: Result<Void, ArchiveError>) {
            result.withLock { $0 = outcome }
            done.signal()
        }
    }

    /// What `submit` hands over.
    enum Job {
        case apply([ArchiveWrite])
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
    private let wake = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)

    init(connection: SQLiteConnection, historyRetention: Int?, replyLimit: Int) throws(ArchiveError) {
        let statements: SQLiteWrites
        do {
            statements = try SQLiteWrites(connection, historyRetention: historyRetention, replyLimit: replyLimit)
        } catch {
            throw error.archiveError
        }
        let owned = WriterThreadState(statements)
        // The thread holds the writer until `close()` ends it.
        let thread = Thread { [self] in
            run(owned.statements)
            stopped.signal()
        }
        thread.name = "switchyard.sqlite-writer"
        thread.start()
    }

    /// Commits `job`'s writes; returns once they are durable.
    func submit(_ job: Job) throws(ArchiveError) {
        guard case .apply(let writes) = job else { return }
        let ticket = Ticket(writes)
        let accepted = queue.withLock { queue in
            guard !queue.closed else { return false }
            queue.waiting.append(ticket)
            return true
        }
        guard accepted else { throw .closed }
        wake.signal()
        ticket.done.wait()
        try ticket.result.withLock { $0 }.get()
    }

    var isClosed: Bool { queue.withLock { $0.closed } }

    var statistics: (commits: Int, batches: Int) {
        queue.withLock { ($0.commits, $0.batches) }
    }

    /// Commits what is waiting, then stops the thread; later submits fail with ``ArchiveError/closed``.
    func close() {
        let first = queue.withLock { queue in
            defer { queue.closed = true }
            return !queue.closed
        }
        guard first else { return }
        wake.signal()
        stopped.wait()
    }

    private func run(_ statements: SQLiteWrites) {
        while true {
            wake.wait()
            let (tickets, closed) = queue.withLock { queue in
                let taken = Array(queue.waiting.prefix(Self.maxBatches))
                queue.waiting.removeFirst(taken.count)
                return (taken, queue.closed)
            }
            if !tickets.isEmpty {
                Self.commit(tickets, statements)
                queue.withLock {
                    $0.commits += 1
                    $0.batches += tickets.count
                }
                // More may be waiting than one commit takes: go round again without waiting.
                if queue.withLock({ !$0.waiting.isEmpty }) { wake.signal() }
            } else if closed {
                return
            }
        }
    }

    /// One transaction for every ticket; a ticket is acknowledged only if the commit succeeded.
    private static func commit(_ tickets: [Ticket], _ statements: SQLiteWrites) {
        let connection = statements.connection
        do {
            try connection.execute("BEGIN IMMEDIATE")
        } catch {
            for ticket in tickets { ticket.finish(.failure(error.archiveError)) }
            return
        }
        var outcomes: [Result<Void, ArchiveError>] = []
        for ticket in tickets {
            do {
                try connection.execute("SAVEPOINT batch")
                try statements.apply(ticket.writes)
                try connection.execute("RELEASE batch")
                outcomes.append(.success(()))
            } catch {
                guard connection.inTransaction else {
                    // SQLite rolled the whole transaction back (e.g. on a full disk): nothing of it is stored.
                    for ticket in tickets { ticket.finish(.failure(error.archiveError)) }
                    return
                }
                try? connection.execute("ROLLBACK TO batch; RELEASE batch")
                outcomes.append(.failure(error.archiveError))
            }
        }
        do {
            try connection.execute("COMMIT")
        } catch {
            if connection.inTransaction { try? connection.execute("ROLLBACK") }
            for ticket in tickets { ticket.finish(.failure(error.archiveError)) }
            return
        }
        for (ticket, outcome) in zip(tickets, outcomes) { ticket.finish(outcome) }
    }
}

/// The writer's connection and statements, handed to its thread once and used only there.
private final class WriterThreadState: @unchecked Sendable {
    let statements: SQLiteWrites
    init(_ statements: SQLiteWrites) { self.statements = statements }
}
