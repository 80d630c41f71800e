/// A change submitted to the store and not yet known to be durable. The session's next change may run on it
/// meanwhile (``InFlightWrites``), but nothing reads it and nothing is answered from it until it is.
struct InFlightWrite {
    let submission: any ArchiveSubmission
    /// The version it stores.
    let version: Int
    /// Its history entries, made public once it is durable.
    let entries: [HistoryEntry]
    /// The restore document it stores.
    let state: [UInt8]
}

/// A session's writes that ran ahead of the store: those submitted and not yet known to be durable, oldest first,
/// and the requests that wait for them. Only changes run while there are any; every other request waits for
/// them, and while one waits no change runs ahead (so that the wait ends).
///
/// One verb settles them (``settle()``): the writes whose outcome is known leave, in order.
struct InFlightWrites {
    private var writes: [InFlightWrite] = []
    /// How many requests wait for the writes.
    private var waiting = 0

    /// Whether no write is in flight.
    var isEmpty: Bool { writes.isEmpty }

    /// The newest write in flight: the one a change builds on, and the one to wait for.
    var last: InFlightWrite? { writes.last }

    /// Whether a change may run ahead of the writes now: not while a request waits for them.
    var takesMore: Bool { waiting == 0 }

    /// Takes `write`, just submitted, in flight.
    mutating func add(_ write: InFlightWrite) {
        writes.append(write)
    }

    /// A request begins to wait for the writes: the submission to wait for (without the session's lock), nil when
    /// none is in flight. Call ``stopWaiting()`` under the lock once it waited.
    mutating func wait() -> (any ArchiveSubmission)? {
        guard let last = writes.last else { return nil }
        waiting += 1
        return last.submission
    }

    /// A request that waited (``wait()``) runs now.
    mutating func stopWaiting() {
        waiting -= 1
    }

    /// Takes out the writes whose outcome is known, oldest first (writes settle in order), with their outcomes.
    mutating func settle() -> [(write: InFlightWrite, outcome: Result<Void, ArchiveError>)] {
        var settled: [(write: InFlightWrite, outcome: Result<Void, ArchiveError>)] = []
        while let first = writes.first, let outcome = first.submission.outcome {
            writes.removeFirst()
            settled.append((first, outcome))
        }
        return settled
    }
}
