/// What a run of engine operations did (``NavigationEngine/collectingCommits(_:)``): how it ended, and every
/// change it committed, in order.
///
/// A guard's redirect is an ending of its own, not a failure: the operation asked for did not happen, but the
/// redirect did (a version, in ``commits``), and the session is where the guard sent it.
public struct CommitRun<Value> {
    /// How a run ended.
    public enum Ending {
        /// The operations returned `value`.
        case returned(Value)
        /// A route's guard sent the operation elsewhere, and that committed in its place: `error` says so to
        /// whoever asked for the operation (``NavigationError/redirected(_:to:)``, whose ``NavigationError/redirect``
        /// is the route now pending).
        case redirected(NavigationError)
        /// The operations threw `error`; what they committed before it is in ``commits``.
        case failed(any Error)
    }

    /// How the run ended.
    public let ending: Ending
    /// The changes it committed, in order: one call can commit more than once (a change, then the pending deep link
    /// it made possible), and a run that failed or redirected may have committed before it ended.
    public let commits: [Commit]

    /// What the operations returned; a redirect or a failure is thrown, as the operations threw it.
    public func get() throws -> Value {
        switch ending {
        case .returned(let value): value
        case .redirected(let error): throw error
        case .failed(let error): throw error
        }
    }
}

extension CommitRun.Ending {
    /// The ending of `result`: a thrown ``NavigationError`` that carries a ``NavigationError/redirect`` is a
    /// redirect that committed.
    init(_ result: Result<Value, any Error>) {
        switch result {
        case .success(let value): self = .returned(value)
        case .failure(let error as NavigationError) where error.redirect != nil: self = .redirected(error)
        case .failure(let error): self = .failed(error)
        }
    }
}

extension CommitRun: Sendable where Value: Sendable {}
extension CommitRun.Ending: Sendable where Value: Sendable {}
