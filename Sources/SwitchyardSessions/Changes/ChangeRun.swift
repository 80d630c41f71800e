/// One request going through the ``ChangePipeline``: what it asks, the session it runs on (a copy read back
/// replaces one that left memory), and what its earlier turns left to know.
struct ChangeRun {
    let request: ChangeRequest
    var session: Session
    /// The time the change is recorded at (taken again when the session is read back).
    var time: Double
    /// Whether the copy may be behind a shared store: a change without a key may run on a copy nobody compared with
    /// the store (``LiveSessions/sessionToChange(_:)``), so until it caught up once, an answer without a write is
    /// checked first.
    var unchecked: Bool
    /// Set once the request waited for the session's writes in flight: the next turn takes it out of the waiting
    /// requests, in the same turn that runs it.
    var waited = false

    init(_ request: ChangeRequest, session: Session, shared: Bool) {
        self.request = request
        self.session = session
        time = session.time
        unchecked = request.key == nil && shared
    }
}
