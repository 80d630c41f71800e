import MicroHTTP

/// One endpoint of the API: its path template and a handler per method; ``SwitchyardAPI/routes`` lists them all.
///
/// A template's segments are literal names, `{id}` (the session id), `{version}` or `{app}`, handed to the handler as
/// ``Parameters``. `HEAD` is answered as `GET`; any other method gets 405 with `Allow`.
struct APIRoute: Sendable {
    typealias Handler = @Sendable (SwitchyardAPI, HTTPRequest, _ path: Parameters) throws -> HTTPResponse

    /// The values of a matched path's placeholders ("" for those the template does not have).
    struct Parameters: Sendable {
        var id = ""
        var version = ""
        var app = ""
    }

    /// The path template, e.g. `/api/sessions/{id}/transitions`; also the `route` label of the metrics.
    let template: String
    /// An admin endpoint (under `/api/admin/`): not there (404) without an admin token, and each request must carry
    /// it (``SwitchyardAPI/authorizeAdmin(_:)``, checked here for all of them once the method is known).
    let isAdmin: Bool
    private let segments: [Substring]
    private let handlers: [(method: String, handler: Handler)]

    init(_ template: String, _ handlers: [(String, Handler)]) {
        self.template = template
        segments = template.split(separator: "/")
        isAdmin = template.hasPrefix("/api/admin/")
        self.handlers = handlers.map { (method: $0.0, handler: $0.1) }
    }

    /// The placeholders' values when `parts` (the request path's segments) match the template; nil when they do
    /// not.
    func match(_ parts: [Substring]) -> Parameters? {
        guard parts.count == segments.count else { return nil }
        var parameters = Parameters()
        for (part, segment) in zip(parts, segments) {
            switch segment {
            case "{id}": parameters.id = String(part)
            case "{version}": parameters.version = String(part)
            case "{app}": parameters.app = String(part)
            default: if part != segment { return nil }
            }
        }
        return parameters
    }

    /// The methods this endpoint answers, as `Allow` lists them.
    var allowed: [String] {
        let methods = handlers.map(\.method)
        return methods.contains("GET") ? methods + ["HEAD"] : methods
    }

    /// Runs the handler of the request's method (for an admin endpoint, once the request carries the admin token),
    /// or throws 405.
    func answer(_ request: HTTPRequest, path: Parameters, api: SwitchyardAPI) throws -> HTTPResponse {
        let method = request.method == "HEAD" ? "GET" : request.method
        guard let handler = handlers.first(where: { $0.method == method })?.handler else {
            throw Problem(
                status: 405, code: "methodNotAllowed", title: "Method not allowed",
                detail: "\(request.method) is not allowed here; use \(allowed.joined(separator: ", "))",
                choices: allowed, headers: [("Allow", allowed.joined(separator: ", "))])
        }
        if isAdmin { try api.authorizeAdmin(request) }
        return try handler(api, request, path)
    }
}

extension SwitchyardAPI {
    /// Every endpoint of the API. Paths under `/api/` that match none are 404; any other path is a static file.
    static let routes: [APIRoute] = [
        APIRoute("/healthz", [("GET", { api, _, _ in api.health() })]),
        APIRoute("/readyz", [("GET", { api, _, _ in api.readiness() })]),
        APIRoute(
            "/metrics",
            [
                (
                    "GET",
                    { api, _, _ in
                        .text(
                            200,
                            api.metrics.exposition(
                                of: api.sessions, publishedGeneration: api.releases.generation),
                            headers: api.noStore)
                    }
                )
            ]
        ),
        APIRoute("/api/openapi.json", [("GET", { api, request, _ in api.openAPI(request) })]),
        APIRoute("/api/catalog", [("GET", { api, request, _ in try api.catalog(request) })]),
        APIRoute("/api/definitions/check", [("POST", { api, request, _ in try api.checkDefinition(request) })]),
        APIRoute(
            "/api/admin/migrations",
            [
                ("GET", { api, request, _ in try api.migrations(request, apply: false) }),
                ("POST", { api, request, _ in try api.migrations(request, apply: true) }),
            ]),
        APIRoute("/api/admin/funnel", [("GET", { api, request, _ in try api.funnel(request) })]),
        APIRoute("/api/admin/paths", [("GET", { api, request, _ in try api.paths(request) })]),
        APIRoute("/api/admin/exits", [("GET", { api, request, _ in try api.exits(request) })]),
        APIRoute("/api/admin/coverage", [("GET", { api, request, _ in try api.coverage(request) })]),
        APIRoute("/api/admin/experiment", [("GET", { api, request, _ in try api.experiment(request) })]),
        APIRoute("/api/admin/apps", [("GET", { api, request, _ in try api.publishedApps(request) })]),
        APIRoute(
            "/api/admin/apps/{app}/versions/{version}",
            [
                (
                    "GET",
                    { api, request, path in try api.publishedVersion(app: path.app, version: path.version, request) }
                ),
                (
                    "PUT",
                    { api, request, path in try api.publishVersion(app: path.app, version: path.version, request) }
                ),
                (
                    "DELETE",
                    { api, request, path in try api.retireVersion(app: path.app, version: path.version, request) }
                ),
            ]),
        APIRoute(
            "/api/admin/apps/{app}/versions/{version}/replay",
            [
                ("GET", { api, request, path in try api.latestReplay(app: path.app, version: path.version, request) }),
                (
                    "POST",
                    { api, request, path in try api.replayCandidate(app: path.app, version: path.version, request) }
                ),
            ]),
        APIRoute(
            "/api/admin/apps/{app}/rollout",
            [
                ("PUT", { api, request, path in try api.setRollout(app: path.app, request) }),
                ("DELETE", { api, request, path in try api.setRollout(app: path.app, request, remove: true) }),
            ]),
        APIRoute("/api/sessions", [("POST", { api, request, _ in try api.createSession(request) })]),
        APIRoute(
            "/api/sessions/{id}",
            [
                ("GET", { api, request, path in try api.getSession(path.id, request) }),
                ("DELETE", { api, _, path in try api.deleteSession(path.id) }),
            ]),
        APIRoute(
            "/api/sessions/{id}/transitions",
            [("POST", { api, request, path in try api.transitions(path.id, request) })]),
        APIRoute("/api/sessions/{id}/events", [("POST", { api, request, path in try api.events(path.id, request) })]),
        APIRoute(
            "/api/sessions/{id}/deeplinks", [("POST", { api, request, path in try api.deepLinks(path.id, request) })]),
        APIRoute("/api/sessions/{id}/restore", [("POST", { api, request, path in try api.restore(path.id, request) })]),
        APIRoute(
            "/api/sessions/{id}/preview/transitions",
            [("POST", { api, request, path in try api.transitions(path.id, request, mode: .preview) })]),
        APIRoute(
            "/api/sessions/{id}/preview/events",
            [("POST", { api, request, path in try api.events(path.id, request, mode: .preview) })]),
        APIRoute(
            "/api/sessions/{id}/preview/deeplinks",
            [("POST", { api, request, path in try api.deepLinks(path.id, request, mode: .preview) })]),
        APIRoute(
            "/api/sessions/{id}/preview/restore",
            [("POST", { api, request, path in try api.restore(path.id, request, mode: .preview) })]),
        APIRoute("/api/sessions/{id}/stream", [("GET", { api, request, path in try api.stream(path.id, request) })]),
        APIRoute(
            "/api/sessions/{id}/history", [("GET", { api, request, path in try api.history(path.id, request) })]),
        APIRoute("/api/sessions/{id}/catalog", [("GET", { api, _, path in try api.catalog(ofSession: path.id) })]),
        APIRoute("/api/sessions/{id}/link", [("GET", { api, _, path in try api.visibleLink(path.id) })]),
        APIRoute("/api/sessions/{id}/refusals", [("GET", { api, _, path in try api.refusals(path.id) })]),
        APIRoute(
            "/api/sessions/{id}/versions/{version}/patch",
            [("GET", { api, _, path in try api.patch(path.version, of: path.id) })]),
        APIRoute(
            "/api/sessions/{id}/versions/{version}",
            [("GET", { api, request, path in try api.version(path.version, of: path.id, request) })]),
    ]
}
