import Switchyard

/// Why the session layer applied nothing of a change (or of a lookup, creation or read).
package enum ChangeRefusal: Error, Sendable {
    /// The front end could not read the request (its own error, which it renders).
    case unreadable(any Error)
    /// The engine refused it: an unknown route, a guard, a navigation rule, bad input.
    case navigation(NavigationError)
    /// The request lacks what only the session can tell is missing (an event without `from` while nothing is
    /// visible).
    case malformed(String)
    /// The session is at `current`, not one of `wanted`; `document` is its state document.
    case staleVersion(current: Int, wanted: [Int], document: [UInt8])
    /// The change would make the state document `bytes` long, over `limit`.
    case documentTooLarge(bytes: Int, limit: Int)
    /// The change would show a screen whose rendering went past its budget (why).
    case renderingBudgetExceeded(String)
    /// A version asked for does not exist yet.
    case unknownVersion(Int, current: Int)
    /// A version asked for is no longer kept by the sessions.
    case versionNotKept(Int)
    /// The stored session cannot be restored by the app as it runs now.
    case incompatible(String)
    /// The idempotency key already answered a different request.
    case keyReused(String)
    /// The request under this idempotency key was applied as `version`, which the store no longer keeps: its answer
    /// cannot be given again, and the request is not applied again.
    case replayUnavailable(key: String, version: Int)
    /// The session left memory while the request waited for it; a retry reads it back.
    case sessionMoved
    /// Other nodes kept changing the session while the change ran.
    case writeConflict
    /// The session could not be found or read back.
    case lookup(LookupFailure)
    /// The store failed; nothing was stored or acknowledged.
    case store(StoreHealth.Incident)
    /// App code failed in a way the engine does not describe.
    case failed(String)

    /// The refusal for an error thrown while a change ran.
    init(_ error: any Error) {
        switch error {
        case let refusal as ChangeRefusal: self = refusal
        case CommitRefusal.documentTooLarge(let bytes, let limit): self = .documentTooLarge(bytes: bytes, limit: limit)
        case CommitRefusal.renderingBudgetExceeded(let reason): self = .renderingBudgetExceeded(reason)
        case CommitRefusal.misplacedAction(let reason): self = .failed(reason)
        case let error as NavigationError: self = .navigation(error)
        default: self = .failed("\(error)")
        }
    }
}
