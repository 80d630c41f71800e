import MicroHTTP
import Switchyard

/// Dry runs: what a change would do, without doing it.
extension SwitchyardAPI {
    /// Runs a change on a copy of the session (restored from its restore document, so the app's own code runs on
    /// copies of its coordinators) and answers `{"session", "version", "state", "patch", "result"}`: the would-be
    /// state document, the JSON Patch (RFC 6902) from the current one to it, and the change's result. A change that
    /// would be refused gets the problem the real request would get. Nothing is committed or stored, no version,
    /// history entry or stream event is made, and `Idempotency-Key` is ignored.
    func preview(
        _ session: Session, _ request: HTTPRequest, _ body: (inout SessionState) throws -> ChangeResult
    ) -> HTTPResponse {
        do {
            return try session.withState { state in
                if state.ended { throw Problem.sessionMoved(session.id) }
                let current = state.document(keep: true)
                var scratchConfiguration = configuration
                scratchConfiguration.archive = nil
                var scratch = SessionState(
                    id: session.id, engine: try restoredEngine(of: session, from: state.engine.restoreDocument()),
                    configuration: scratchConfiguration)
                let change = try body(&scratch)
                let after = scratch.document()
                let patch = JSONPatch.diff(from: current, to: after)
                var writer = JSONWriter(capacity: after.count + 512)
                writer.beginObject()
                writer.member("session", session.id)
                writer.member("version", state.engine.version)
                writer.key("state")
                writer.raw(after)
                writer.key("patch")
                writer.raw(patch)
                writer.member("result", .object(change.result))
                writer.endObject()
                return .json(200, writer.bytes, headers: noStore + [("ETag", "\"\(state.engine.version)\"")])
            }
        } catch let problem as Problem {
            return problem.response
        } catch let error as NavigationError {
            return Problem(error).response
        } catch {
            return Problem(status: 500, code: "internal", title: "Internal error", detail: "\(error)").response
        }
    }
}
