import MicroHTTP
import SwitchyardJSON
import SwitchyardSessions

/// The analytics endpoints: funnels, paths and exits over the stored sessions (docs/analytics.md). Admin only, like
/// every endpoint under `/api/admin/`; answers hold counts and route names, never session ids, data or requests.
extension SwitchyardAPI {
    /// The query parameters every analytics endpoint takes: its filter.
    private static let filterParameters = ["app", "version", "since", "until"]

    /// `GET /api/admin/funnel?steps=welcome,login,favourites&app=&version=&since=&until=`.
    func funnel(_ request: HTTPRequest) throws -> HTTPResponse {
        try Self.refuseQuery(request, allowing: ["steps"] + Self.filterParameters)
        let report = try sessions.funnel(request.query["steps"] ?? "", filter: try analyticsFilter(request))
        return .json(200, report.json.serialized(), headers: noStore)
    }

    /// `GET /api/admin/paths?from=&to=&top=` and the filter: the most common ways between two screens.
    func paths(_ request: HTTPRequest) throws -> HTTPResponse {
        try Self.refuseQuery(request, allowing: ["from", "to", "top"] + Self.filterParameters)
        guard let from = request.query["from"], let to = request.query["to"] else {
            throw Problem.malformed("name both screens: ?from=welcome&to=todo")
        }
        let top = try request.query["top"].map { text in
            guard let top = Int(text), String(top) == text else {
                throw Problem.malformed("top must be a whole number from 1 to 1000, not '\(text)'")
            }
            return top
        }
        let report = try sessions.paths(from: from, to: to, top: top ?? 10, filter: try analyticsFilter(request))
        return .json(200, report.json.serialized(), headers: noStore)
    }

    /// `GET /api/admin/exits` and the filter: per screen, the sessions that ended there and the refusals seen.
    func exits(_ request: HTTPRequest) throws -> HTTPResponse {
        try Self.refuseQuery(request, allowing: Self.filterParameters)
        let report = try sessions.exits(filter: try analyticsFilter(request))
        return .json(200, report.json.serialized(), headers: noStore)
    }

    /// `GET /api/admin/experiment?app=&goal=` and the window (since, until): the app's rollout read as an
    /// experiment, per version. No `version` filter: a read-out compares the versions (a 400 says so).
    func experiment(_ request: HTTPRequest) throws -> HTTPResponse {
        try Self.refuseQuery(request, allowing: ["goal", "app", "since", "until"])
        guard let goal = request.query["goal"], request.query["app"] != nil else {
            throw Problem.malformed("name the app and the goal: ?app=todos&goal=favourites")
        }
        let report = try sessions.experiment(goal: goal, filter: try analyticsFilter(request))
        return .json(200, report.json.serialized(), headers: noStore)
    }

    /// The filter the query names.
    func analyticsFilter(_ request: HTTPRequest) throws -> AnalyticsFilter {
        let query = request.query
        var filter = AnalyticsFilter(app: query["app"])
        if let text = query["version"] {
            guard let version = Int(text), version >= 1, String(version) == text else {
                throw Problem.malformed("version must be an app version, a whole number from 1, not '\(text)'")
            }
            filter.version = version
        }
        let now = sessions.configuration.now()
        for (name, text) in [("since", query["since"]), ("until", query["until"])] {
            guard let text else { continue }
            guard let time = AnalyticsTime.parse(text, now: now) else {
                throw Problem.malformed(
                    "\(name) must be a UTC time such as 2026-11-29T10:00:00Z or a span before now such as 24h, not "
                        + "'\(text)'")
            }
            if name == "since" { filter.since = time } else { filter.until = time }
        }
        return filter
    }
}

extension SwitchyardAPI {
    /// The sessions the analyses run on, with the versions published in the store served: for `switchyard stats`,
    /// which asks without HTTP.
    package func analyticsSessions() -> LiveSessions {
        releases.follow()
        return sessions
    }
}
