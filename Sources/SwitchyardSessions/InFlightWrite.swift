/// A change submitted to the store and not yet known to be durable. The session's next change may run on it
/// meanwhile (``SessionState/inFlight``), but nothing reads it and nothing is answered from it until it is.
struct InFlightWrite {
    let submission: any ArchiveSubmission
    /// The version it stores.
    let version: Int
    /// Its history entries, made public once it is durable.
    let entries: [HistoryEntry]
    /// The restore document it stores.
    let state: [UInt8]
}
