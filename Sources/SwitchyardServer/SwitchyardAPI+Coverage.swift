import MicroHTTP
import SwitchyardExplorer
import SwitchyardJSON
import SwitchyardSessions

/// Traffic coverage: which transitions of an app's explored graph the stored sessions took, and the sessions per
/// screen, for `switchyard stats --coverage` and the page's heat layer (docs/analytics.md#coverage).
extension SwitchyardAPI {
    /// `GET /api/admin/coverage?app=&version=&since=&until=&steps=`: the explored transitions with how often
    /// and by how many sessions each was taken, those taken but not explored, and the sessions per screen; with
    /// `steps`, of the sessions that complete that funnel only. 503 with `Retry-After` while the app's graph is
    /// explored (the first request for an app version starts it).
    func coverage(_ request: HTTPRequest) throws -> HTTPResponse {
        try Self.refuseQuery(request, allowing: ["steps", "app", "version", "since", "until"])
        let graphs = coverageGraphs
        // The first request for an app version starts its exploration and answers 503 (Retry-After) until done.
        let question = CoverageQuestion(steps: request.query["steps"]) { app throws(AnalyticsRefusal) in
            try graphs.readyGraph(of: app)
        }
        let report = try sessions.coverage(question, filter: try analyticsFilter(request))
        return .json(200, report.json.serialized(), headers: noStore)
    }

    /// Coverage asked of this API's apps, explored with ``CoverageGraphs`` (within `limits`, when given, instead of
    /// the configuration's), waiting for each exploration; of the sessions that complete the funnel `steps` when
    /// given.
    package func coverageQuestion(steps: String? = nil, limits: ExplorationLimits? = nil) -> CoverageQuestion {
        let graphs = limits.map(CoverageGraphs.init) ?? coverageGraphs
        return CoverageQuestion(steps: steps) { app throws(AnalyticsRefusal) in try graphs.graph(of: app) }
    }
}
