import MicroHTTP
import SwitchyardSessions

/// How the API answers what the session layer did, given to it once: a change's outcome
/// (``SwitchyardSessions/ChangePipeline``) as the new state document with `result` (or the summary for
/// `Prefer: return=minimal`) or the problem it ended with; a creation (``SwitchyardSessions/SessionCreations``) as
/// 201 with the first state document.
struct SessionReplies: ChangeRendering, CreationRendering {
    /// `Session-Expiry` of a creation: `unused=S, idle=S`, the seconds after which a new session nothing used is
    /// deleted, and those after which a used one expires when idle (an RFC 8941 dictionary of integers).
    let expiry: String

    /// The replies of a server whose sessions expire after `unusedSessionTTL` unused, `sessionTTL` idle.
    init(unusedSessionTTL: Duration, sessionTTL: Duration) {
        expiry = "unused=\(unusedSessionTTL.components.seconds), idle=\(sessionTTL.components.seconds)"
    }

    func created(_ snapshot: SessionSnapshot) -> SessionReply {
        SessionReply(
            .json(
                201, snapshot.document(),
                headers: SwitchyardAPI.noStore + [
                    ("Location", "/api/sessions/\(snapshot.session)"), ("ETag", "\"\(snapshot.version)\""),
                    ("Session-Expiry", expiry),
                ]))
    }

    func replayed(_ reply: SessionReply) -> SessionReply {
        var reply = reply
        reply.headers.append(("Idempotent-Replayed", "true"))
        return reply
    }

    func reply(to outcome: ChangeOutcome, of request: ChangeRequest, session id: String) -> SessionReply {
        switch outcome {
        case .committed(let result, let snapshot), .unchanged(let result, let snapshot):
            let headers = SwitchyardAPI.noStore + [("ETag", "\"\(snapshot.version)\"")]
            if request.form == .minimal {
                return SessionReply(
                    .json(
                        200, snapshot.summary(result: result),
                        headers: headers + [("Preference-Applied", "return=minimal")]))
            }
            return SessionReply(.json(200, snapshot.document(result: result), headers: headers))
        case .redirected(let error, let snapshot):
            // The redirect committed: say where the session is now, as a 412 does.
            return SessionReply(Problem(error, now: snapshot.version, document: snapshot.document()).response)
        case .refused(let refusal):
            return SessionReply(Problem(rendering: refusal, session: id).response)
        case .replayed(let reply): return replayed(reply)
        case .rebuilt(let outcome): return replayed(self.reply(to: outcome, of: request, session: id))
        }
    }
}
