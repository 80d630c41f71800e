import MicroHTTP
import SwitchyardSessions

/// How the API answers a change's outcome, given to the session layer's ``SwitchyardSessions/ChangePipeline`` once:
/// the new state document with `result` (or the summary for `Prefer: return=minimal`), or the problem it ended
/// with.
struct ChangeReplies: ChangeRendering {
    func reply(to outcome: ChangeOutcome, of request: ChangeRequest, session id: String) -> SessionReply {
        switch outcome {
        case .committed(let result, let snapshot), .unchanged(let result, let snapshot):
            let headers = [("Cache-Control", "no-store"), ("ETag", "\"\(snapshot.version)\"")]
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
        case .replayed(var reply):
            reply.headers.append(("Idempotent-Replayed", "true"))
            return reply
        case .rebuilt(let outcome):
            var reply = self.reply(to: outcome, of: request, session: id)
            reply.headers.append(("Idempotent-Replayed", "true"))
            return reply
        }
    }
}
