/// Everything the change pipeline needs of a request, decoded before any session lock is taken.
package struct ChangeRequest: Sendable {
    /// What to change; or why the front end could not read the request. A request that cannot be read is still
    /// answered by the pipeline, after a retried key's replay, and its answer is remembered under the key like any
    /// other: a retry gets the same answer, and the key cannot be used again for another request.
    package var change: Result<SessionChange, any Error>
    /// The versions the client allows the change to apply to (`expectedVersion`, `If-Match`); nil for any.
    package var expectedVersions: [Int]?
    /// The idempotency key: a retry under it gets the first answer.
    package var key: String?
    /// What identifies the request under its key: the same key with another fingerprint is refused.
    package var fingerprint: UInt64
    /// The request as received, for the history.
    package var body: [UInt8]
    /// The answer the client asked for (``ChangeRendering`` reads it).
    package var form: ReplyForm

    package init(
        _ change: Result<SessionChange, any Error>, expectedVersions: [Int]? = nil, key: String? = nil,
        fingerprint: UInt64 = 0, body: [UInt8] = [], form: ReplyForm = .full
    ) {
        self.change = change
        self.expectedVersions = expectedVersions
        self.key = key
        self.fingerprint = fingerprint
        self.body = body
        self.form = form
    }
}
