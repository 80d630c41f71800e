/// Why a session could not be served.
package enum LookupFailure: Error, Sendable {
    /// Stored, but the server holds its maximum of `limit` live sessions; the first expires in `retryAfter` s.
    case full(limit: Int, retryAfter: Int)
    /// No such session (never created, deleted, or expired).
    case unknown
    /// Stored, but the app as it runs now cannot restore it.
    case incompatible(String)
    /// The store could not be read.
    case store(StoreHealth.Incident)
}

/// Why a session could not be created.
package enum CreateFailure: Error, Sendable {
    /// The server holds its maximum of `limit` live sessions; the first expires in `retryAfter` s.
    case full(limit: Int, retryAfter: Int)
    /// No app has this name; `choices` are those served.
    case unknownApp(String, choices: [String])
    /// The app's root coordinator could not start.
    case engine(String)
    /// The new session's first state document would break a limit (``ChangeRefusal/documentTooLarge(bytes:limit:)``
    /// or ``ChangeRefusal/renderingBudgetExceeded(_:)``): the app starts on a screen too large to show.
    case firstDocument(ChangeRefusal)
    /// Another node created a session under the same idempotency key first.
    case keyTaken
    /// The idempotency key (as the client sent it) already created a session for a different request.
    case keyReused(String)
    /// The store failed; nothing was created.
    case store(StoreHealth.Incident)
}
