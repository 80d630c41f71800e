/// How a front end answers a creation, given to ``SessionCreations`` once. Called before the session is stored
/// (a retry under the request's key gets the same bytes): it only renders.
package protocol CreationRendering: Sendable {
    /// The answer to a creation that made this session, in its first state.
    func created(_ snapshot: SessionSnapshot) -> SessionReply
    /// A first answer given again to a retry under its key.
    func replayed(_ reply: SessionReply) -> SessionReply
}
