import SwitchyardSessions

extension ReleaseRefusal: ProblemRendering {
    /// The problem an admin change's refusal answers with.
    func problem(session: String) -> Problem {
        switch self {
        case .noRegistry:
            Problem(
                status: 409, code: "noRegistry", title: "Publishing unavailable",
                detail: "this server's store keeps no published apps; serve versions from the configuration")
        case .notFound(let what): .notFound(what)
        case .invalid(let why): Problem(status: 422, code: "invalidRelease", title: "Invalid input", detail: why)
        case .invalidDefinition(let findings):
            Problem(
                status: 422, code: "invalidDefinition", title: "Invalid definition",
                detail: findings.first.map { "\($0.pointer.isEmpty ? "" : $0.pointer + ": ")\($0.message)" }
                    ?? "the definition has errors",
                extra: [("diagnostics", DefinitionFinding.json(findings).serialized())])
        case .invalidApps(let errors):
            Problem(
                status: 422, code: "invalidApps", title: "Invalid input",
                detail: "the apps would not work together: " + errors.joined(separator: "; "), choices: errors)
        case .conflict(let why): Problem(status: 409, code: "releaseConflict", title: "Conflict", detail: why)
        case .sessionsWouldBeLost(let report, let count): Self.sessionsWouldBeLost(report, count: count)
        case .rolloutSettling(let seconds):
            Problem(
                status: 409, code: "rolloutSettling", title: "Conflict",
                detail: "the app's rollout changed moments ago, and a node may still give this version new sessions; "
                    + "retry in \(seconds) s",
                headers: [("Retry-After", "\(seconds)")])
        case .changedMeanwhile:
            Problem(
                status: 409, code: "changedMeanwhile", title: "Conflict",
                detail: "another admin change of the published apps was stored first; read them again and retry")
        case .staleGeneration(let current):
            Problem(
                status: 412, code: "staleGeneration", title: "Precondition failed",
                detail: "the published apps are at generation \(current), not the one If-Match names; read them "
                    + "again (GET /api/admin/apps) and decide again",
                headers: [("ETag", "\"\(current)\"")])
        case .store(let incident): .store(incident, data: "the published apps", kept: "nothing was changed")
        }
    }

    /// 409 `sessionsWouldBeLost`, with the dry run.
    private static func sessionsWouldBeLost(_ report: MigrationReport, count: Int) -> Problem {
        Problem(
            status: 409, code: "sessionsWouldBeLost", title: "Sessions would be lost",
            detail: "\(count) stored \(count == 1 ? "session" : "sessions") would be lost: no migration takes "
                + "\(count == 1 ? "it" : "them") to a served version without it; add a migration, or name a "
                + "served version with ?fallback=N for \(count == 1 ? "it" : "them") to start over on",
            extra: [("sessions", report.json.serialized())])
    }
}
