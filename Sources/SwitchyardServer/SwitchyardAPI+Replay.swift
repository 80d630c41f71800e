import MicroHTTP
import Switchyard
import SwitchyardSessions

/// The admin endpoints that replay a sample of the stored sessions on a candidate app version before it takes
/// traffic (``StoredReplay``, as `switchyard replay` does), and the check of a rollout that requires a clean one.
/// Their refusals render in ``ReplayRefusal``'s ``ProblemRendering``.
extension SwitchyardAPI {
    /// `POST /api/admin/apps/{app}/versions/{version}/replay`, `{"sample", "maxRequests", "timeLimit", "since"}`
    /// (each optional, bounded by ``CandidateReplayRequest``): replays that many of the app's stored sessions on
    /// the served version `version`, as if the rollout gave it every new session (the app's other versions' sessions
    /// migrate to it when a migration leads there), in memory, on this request's thread, one session at a time; the
    /// store is only read. Answers the report (``CandidateReplays/Latest/json``) and keeps it as the version's latest.
    func replayCandidate(app: String, version text: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let candidate = AppVersion(name: app, version: try Self.appVersionNumber(text))
        try Self.refuseQuery(request, allowing: [])
        var body = CandidateReplayRequest()
        if !request.body.isEmpty {
            try requireJSON(request)
            body = try decode(CandidateReplayRequest.self, request.body)
        }
        let options = try body.options()
        releases.follow()
        let served = sessions.servedApps.apps
        guard served.app(candidate) != nil else {
            throw ReplayRefusal.notServed(candidate, served: served.versions(of: app).map(\.version))
        }
        var configuration = ServerConfiguration(apps: served.versions(of: app))
        configuration.rollouts = [AppRollout(app: app, shares: [.init(version: candidate.version, weight: 100)])]
        configuration.now = self.configuration.now
        let replay = StoredReplay(source: sessions.archive, candidate: configuration, options: options)
        guard let latest = replays.run(candidate, at: configuration.now(), replay.run) else {
            throw ReplayRefusal.busy
        }
        return .json(200, latest.json.serialized(), headers: noStore)
    }

    /// `GET /api/admin/apps/{app}/versions/{version}/replay`: the version's latest replay on this node, or 404
    /// `noReplayYet`.
    func latestReplay(app: String, version text: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let candidate = AppVersion(name: app, version: try Self.appVersionNumber(text))
        try Self.refuseQuery(request, allowing: [])
        guard let latest = replays.latest(candidate) else { throw ReplayRefusal.noReplayYet(candidate) }
        return .json(200, latest.json.serialized(), headers: noStore)
    }

    /// For a rollout that requires a clean replay: throws 409 unless every served version of `app` that `shares`
    /// give more weight than the rollout in force has a latest replay on this node that ran and diverged nowhere.
    func requireCleanReplays(app: String, shares: [PublishedApps.Share]) throws {
        releases.follow()
        let served = sessions.servedApps.apps
        let current = served.rollout(of: app)?.shares ?? []
        for share in shares {
            let now = current.first { $0.version == share.version }?.weight ?? 0
            let candidate = AppVersion(name: app, version: share.version)
            // A version not served is the rollout's own refusal (422 invalidApps), not the gate's.
            guard share.weight > now, served.app(candidate) != nil else { continue }
            let kept = replays.latest(candidate)
            guard let latest = kept, latest.report.failure == nil else {
                throw ReplayRefusal.required(candidate, failure: kept?.report.failure)
            }
            if !latest.isClean {
                let group = latest.report.groups.first
                throw ReplayRefusal.diverged(
                    candidate, diverged: latest.report.diverged, replayed: latest.report.replayed,
                    reason: group?.reason, example: group?.example)
            }
        }
    }
}
