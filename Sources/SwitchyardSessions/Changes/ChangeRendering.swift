/// How a front end answers a change's outcome (for HTTP: status, headers, body), given to the ``ChangePipeline``
/// once, when it is made.
///
/// The pipeline calls it under the session's lock and before the store write, since a retry under the request's
/// idempotency key must get the same bytes: it only renders, and never calls back into the session layer.
package protocol ChangeRendering: Sendable {
    /// The answer to `request`, which ended as `outcome`, on session `session`.
    func reply(to outcome: ChangeOutcome, of request: ChangeRequest, session: String) -> SessionReply
}
