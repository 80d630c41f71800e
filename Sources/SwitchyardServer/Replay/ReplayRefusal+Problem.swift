extension ReplayRefusal: ProblemRendering {
    /// The problem a refused replay or rollout answers with: 404 for what is not there, 503 `replayBusy`, 409
    /// `replayRequired` or `replayDiverged` for a rollout, nothing changed.
    func problem(session: String) -> Problem {
        switch self {
        case .notServed(let candidate, let served):
            Problem(
                status: 404, code: "unknownVersion", title: "Not found",
                detail: "\(candidate) is not served (neither configured nor published)"
                    + (served.isEmpty ? "" : "; served: \(served.map(String.init).joined(separator: ", "))"),
                choices: served.map(String.init))
        case .busy:
            Problem(
                status: 503, code: "replayBusy", title: "Service unavailable",
                detail: "another replay is running on this node; replays run one at a time, retry in a few seconds",
                headers: [("Retry-After", "5")])
        case .noReplayYet(let candidate):
            .notFound(
                "no replay yet: \(candidate) was not replayed on this node (POST to this path replays it)",
                code: "noReplayYet")
        case .required(let candidate, let failure):
            Problem(
                status: 409, code: "replayRequired", title: "Conflict",
                detail: "the rollout requires a clean replay of every version it gives more weight, and "
                    + (failure.map { "the latest replay of \(candidate) could not run (\($0))" }
                        ?? "\(candidate) has no replay on this node")
                    + "; replay it first (POST /api/admin/apps/\(candidate.name)/versions/\(candidate.version)/replay)"
                    + "; nothing was changed")
        case .diverged(let candidate, let diverged, let replayed, let reason, let example):
            Problem(
                status: 409, code: "replayDiverged", title: "Conflict",
                detail: "the rollout requires a clean replay of every version it gives more weight, and the latest "
                    + "replay of \(candidate) diverged: \(diverged) of \(replayed) "
                    + "\(replayed == 1 ? "session" : "sessions")"
                    + (reason.map { " (\($0)" + (example.map { ", e.g. session \($0)" } ?? "") + ")" } ?? "")
                    + "; nothing was changed",
                extra: [("diverged", Array(String(diverged).utf8)), ("replayed", Array(String(replayed).utf8))])
        }
    }
}
