import MicroHTTP

/// One endpoint of the API: its path template and a handler per method; ``SwitchyardAPI/routes`` lists them all.
///
/// A template's segments are literal names or `{id}` (the session id, handed to the handler). `HEAD` is answered
/// as `GET`; any other method gets 405 with `Allow`.
struct APIRoute: Sendable {
    typealias Handler = @Sendable (SwitchyardAPI, HTTPRequest, _ id: String) throws -> HTTPResponse

    /// The path template, e.g. `/api/sessions/{id}/transitions`; also the `route` label of the metrics.
    let template: String
    private let segments: [Substring]
    private let handlers: [(method: String, handler: Handler)]

    init(_ template: String, _ handlers: [(String, Handler)]) {
        self.template = template
        segments = template.split(separator: "/")
        self.handlers = handlers.map { (method: $0.0, handler: $0.1) }
    }

    /// The session id when `parts` (the request path's segments) match the template ("" without `{id}`); nil when
    /// they do not.
    func match(_ parts: [Substring]) -> String? {
        guard parts.count == segments.count else { return nil }
        var id = ""
        for (part, segment) in zip(parts, segments) {
            if segment == "{id}" {
                id = String(part)
            } else if part != segment {
                return nil
            }
        }
        return id
    }

    /// The methods this endpoint answers, as `Allow` lists them.
    var allowed: [String] {
        let methods = handlers.map(\.method)
        return methods.contains("GET") ? methods + ["HEAD"] : methods
    }

    /// Runs the handler of the request's method, or throws 405.
    func answer(_ request: HTTPRequest, id: String, api: SwitchyardAPI) throws -> HTTPResponse {
        let method = request.method == "HEAD" ? "GET" : request.method
        guard let handler = handlers.first(where: { $0.method == method })?.handler else {
            throw Problem(
                status: 405, code: "methodNotAllowed", title: "Method not allowed",
                detail: "\(request.method) is not allowed here; use \(allowed.joined(separator: ", "))",
                choices: allowed, headers: [("Allow", allowed.joined(separator: ", "))])
        }
        return try handler(api, request, id)
    }
}

extension SwitchyardAPI {
    /// Every endpoint of the API. Paths under `/api/` that match none are 404; any other path is a static file.
    static let routes: [APIRoute] = [
        APIRoute("/healthz", [("GET", { api, _, _ in api.health() })]),
        APIRoute("/metrics", [("GET", { api, _, _ in .text(200, api.metrics.exposition()) })]),
        APIRoute("/api/openapi.json", [("GET", { api, _, _ in .json(200, api.openAPIDocument) })]),
        APIRoute("/api/catalog", [("GET", { api, request, _ in try api.catalog(request) })]),
        APIRoute("/api/sessions", [("POST", { api, request, _ in try api.createSession(request) })]),
        APIRoute(
            "/api/sessions/{id}",
            [
                ("GET", { api, request, id in try api.getSession(id, request) }),
                ("DELETE", { api, _, id in try api.deleteSession(id) }),
            ]),
        APIRoute(
            "/api/sessions/{id}/transitions", [("POST", { api, request, id in try api.transitions(id, request) })]),
        APIRoute("/api/sessions/{id}/events", [("POST", { api, request, id in try api.events(id, request) })]),
        APIRoute("/api/sessions/{id}/deeplinks", [("POST", { api, request, id in try api.deepLinks(id, request) })]),
        APIRoute("/api/sessions/{id}/stream", [("GET", { api, request, id in try api.stream(id, request) })]),
        APIRoute("/api/sessions/{id}/history", [("GET", { api, _, id in try api.history(id) })]),
    ]
}
