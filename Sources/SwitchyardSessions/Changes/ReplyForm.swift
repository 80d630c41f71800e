/// The answer a client asked a change for.
package enum ReplyForm: Sendable {
    /// The whole state document, with the change's `result`.
    case full
    /// The short document: session, version, visible path and `result` (for HTTP, `Prefer: return=minimal`;
    /// clients following the stream already get the whole document there).
    case minimal
}
