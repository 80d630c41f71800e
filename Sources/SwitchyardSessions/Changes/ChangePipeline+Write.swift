/// The store write of a change that made versions (or has an answer to remember under its key).
extension ChangePipeline {
    /// Writes `execution` to the store before anything is acknowledged: nil once it is durable (the change is then
    /// concluded); otherwise how the turn ends: in flight (the change ran ahead of the store), a conflict (another
    /// node changed the session first), or the store's failure.
    func write(
        _ execution: Execution, runsAhead: Bool, _ state: inout SessionState, _ run: ChangeRun
    ) -> ChangeTurn? {
        let deltas = sessions.archive.storesDeltas
        do {
            let write = try state.archiveWrite(
                execution.entries, commits: execution.commits, reply: storedReply(execution, run), deltas: deltas)
            let submission = sessions.archive.submit([write], after: state.inFlight.last?.submission)
            // In flight if it is not settled yet, or if writes before it are (which settle in order).
            if runsAhead, submission.outcome == nil || !state.inFlight.isEmpty,
                case .change(_, _, let version, let document, _, _) = write
            {
                // The session's next change may run now: this one is answered once it is durable.
                state.submitted(
                    InFlightWrite(
                        submission: submission, version: version, entries: execution.entries, state: document),
                    deltas: deltas)
                if state.subscribers.isEmpty { state.documents.forget() }
                keepRefusal(execution, &state, run)
                return .pending(execution.answer, .own(submission), transition: execution.transition)
            }
            try submission.finish().get()
            sessions.health.succeeded()
            if case .change(_, _, _, let stored, _, _) = write { state.stored(stored, deltas: deltas) }
            return nil
        } catch ArchiveError.conflict where state.inFlight.isEmpty {
            return .conflict
        } catch {
            // Not stored, so not acknowledged: the session leaves memory and is read back from the store (as it was
            // before this change) by the next request; once the writes still in flight are settled, so that the
            // store it is read back from has those that are durable.
            state.ended = true
            let incident = sessions.health.failed(
                error as? ArchiveError ?? .unavailable("\(error)"), during: "change", session: state.id)
            let answer = answer(.refused(.store(incident)), run)
            if let last = state.inFlight.last { return .pending(answer, .earlier(last.submission), transition: nil) }
            return .answered(answer, .evict)
        }
    }

    /// The answer stored under the request's key, if it has one. The answer to a request that committed is stored
    /// as what rebuilds it (its version and result, or its redirect), so that the store keeps a key for every such
    /// request, whatever its documents weigh.
    private func storedReply(_ execution: Execution, _ run: ChangeRun) -> StoredReply? {
        execution.remembered.map { key, entry in
            let reply = execution.answer.reply
            return StoredReply(
                key: key, fingerprint: entry.fingerprint, session: run.session.id, status: reply.status,
                headers: reply.headers, body: entry.rebuild?.storedBody ?? reply.body)
        }
    }
}
