/// Everything session creation needs of a request, decoded by the front end.
package struct CreateRequest: Sendable {
    /// The app to run (nil: the default app).
    package var app: String?
    /// The idempotency key it came with, if any: a retry under it gets the first answer.
    package var key: CreationKey?

    package init(app: String? = nil, key: CreationKey? = nil) {
        self.app = app
        self.key = key
    }
}

/// An idempotency key of a creation.
package struct CreationKey: Sendable {
    /// The key as the client sent it (what a refusal names).
    package var given: String
    /// The key as it is remembered: scoped to the client by the front end, so that another client sending the
    /// same key gets its own session, never this one's id.
    package var scoped: String
    /// What identifies the request under its key: the same key with another fingerprint is refused.
    package var fingerprint: UInt64

    package init(given: String, scoped: String, fingerprint: UInt64) {
        self.given = given
        self.scoped = scoped
        self.fingerprint = fingerprint
    }
}
