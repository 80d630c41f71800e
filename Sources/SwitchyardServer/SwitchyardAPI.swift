import Foundation
import MicroHTTP
import Switchyard

/// The REST/JSON API: one navigation engine per session behind HTTP, plus the static page.
///
/// Routes: `POST /api/sessions`, `GET|DELETE /api/sessions/{id}`, `POST /api/sessions/{id}/transitions|events|deeplinks`,
/// `GET /api/sessions/{id}/stream|history`, `GET /api/catalog`, `GET /api/openapi.json`, `GET /healthz`,
/// `GET /metrics`; anything else is served from the static folder (`/` and `/s/{id}` get `index.html`).
/// Engine refusals become `application/problem+json` answers and leave the session unchanged.
public final class SwitchyardAPI: HTTPHandler {
    let configuration: ServerConfiguration
    let sessions: SessionStore
    let metrics = Metrics()
    let staticFiles: StaticFiles?
    let catalogs: LockedCatalogs
    let createdSessions = IdempotencyLedger(limit: 1024)
    let creations: CreationRateLimiter

    /// An API hosting `configuration.apps`, serving `staticFiles` (nil: API only).
    public init(configuration: ServerConfiguration, staticFiles: StaticFiles? = nil) {
        precondition(!configuration.apps.isEmpty, "ServerConfiguration.apps must name at least one app")
        self.configuration = configuration
        self.staticFiles = staticFiles
        sessions = SessionStore(configuration: configuration, metrics: metrics)
        catalogs = LockedCatalogs()
        creations = CreationRateLimiter(perMinute: configuration.sessionCreationsPerMinute, now: configuration.now)
    }

    /// Ends sessions idle for longer than the TTL; returns how many ended.
    @discardableResult
    public func expireIdleSessions() -> Int {
        sessions.expireIdle()
    }

    /// The number of live sessions.
    public var sessionCount: Int { sessions.count }

    public func handle(_ request: HTTPRequest) throws -> HTTPResponse {
        let started = ServerConfiguration.systemNow()
        let (template, response) = route(request)
        var answer = response
        if let origin = configuration.corsOrigin {
            answer.headers.append(("Access-Control-Allow-Origin", origin))
            answer.headers.append(("Vary", "Origin"))
        }
        metrics.record(
            route: template, method: request.method, status: answer.status,
            seconds: ServerConfiguration.systemNow() - started)
        return answer
    }

    private func route(_ request: HTTPRequest) -> (String, HTTPResponse) {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        do {
            if parts.first == "api" { try refuseCrossSite(request) }
            switch parts.count {
            case 1 where parts[0] == "healthz":
                return ("/healthz", try only(["GET"], request) { health() })
            case 1 where parts[0] == "metrics":
                return ("/metrics", try only(["GET"], request) { .text(200, metrics.exposition()) })
            case 2 where parts[0] == "api" && parts[1] == "openapi.json":
                return ("/api/openapi.json", try only(["GET"], request) { .json(200, openAPIDocument) })
            case 2 where parts[0] == "api" && parts[1] == "catalog":
                return ("/api/catalog", try only(["GET"], request) { try catalog(request) })
            case 2 where parts[0] == "api" && parts[1] == "sessions":
                return ("/api/sessions", try only(["POST"], request) { try createSession(request) })
            case 3 where parts[0] == "api" && parts[1] == "sessions":
                return (
                    "/api/sessions/{id}",
                    try only(["GET", "DELETE"], request) {
                        request.method == "DELETE" ? try deleteSession(parts[2]) : try getSession(parts[2], request)
                    }
                )
            case 4 where parts[0] == "api" && parts[1] == "sessions":
                return try sessionEndpoint(parts[2], parts[3], request)
            default:
                if parts.first == "api" {
                    throw Problem.notFound("no API endpoint at \(request.path)", code: "noSuchEndpoint")
                }
                return ("static", try staticResponse(request, parts: parts))
            }
        } catch let problem as Problem {
            return ("error", problem.response)
        } catch let error as NavigationError {
            return ("error", Problem(error).response)
        } catch {
            return (
                "error",
                Problem(status: 500, code: "internal", title: "Internal error", detail: "\(error)").response
            )
        }
    }

    private func sessionEndpoint(_ id: String, _ name: String, _ request: HTTPRequest) throws -> (String, HTTPResponse)
    {
        let template = "/api/sessions/{id}/\(name)"
        switch name {
        case "transitions": return (template, try only(["POST"], request) { try transitions(id, request) })
        case "events": return (template, try only(["POST"], request) { try events(id, request) })
        case "deeplinks": return (template, try only(["POST"], request) { try deepLinks(id, request) })
        case "stream": return (template, try only(["GET"], request) { try stream(id, request) })
        case "history": return (template, try only(["GET"], request) { try history(id) })
        default: throw Problem.notFound("no API endpoint at \(request.path)", code: "noSuchEndpoint")
        }
    }

    /// Answers 405 with `Allow` unless the method is one of `methods` (HEAD counts as GET; OPTIONS answers CORS).
    private func only(
        _ methods: [String], _ request: HTTPRequest, _ body: () throws -> HTTPResponse
    ) throws
        -> HTTPResponse
    {
        let method = request.method == "HEAD" ? "GET" : request.method
        if request.method == "OPTIONS", configuration.corsOrigin != nil {
            return HTTPResponse(
                status: 204,
                headers: [
                    ("Access-Control-Allow-Methods", (methods + ["OPTIONS"]).joined(separator: ", ")),
                    ("Access-Control-Allow-Headers", "Content-Type, If-Match, Idempotency-Key, Last-Event-ID"),
                    ("Access-Control-Max-Age", "600"),
                ])
        }
        guard methods.contains(method) else {
            let allowed = methods.contains("GET") ? methods + ["HEAD"] : methods
            throw Problem(
                status: 405, code: "methodNotAllowed", title: "Method not allowed",
                detail: "\(request.method) is not allowed here; use \(allowed.joined(separator: ", "))",
                choices: allowed, headers: [("Allow", allowed.joined(separator: ", "))])
        }
        return try body()
    }

    /// 403 for a change (any method but GET, HEAD and OPTIONS) sent by a page of another site, unless its origin is
    /// the configured CORS origin. Browsers say where a request comes from in `Sec-Fetch-Site`, which holds behind
    /// proxies too; without it (older browsers) the `Origin`'s host must be the request's `Host` (or
    /// `X-Forwarded-Host`). Clients that are not browsers send neither header and are not affected.
    private func refuseCrossSite(_ request: HTTPRequest) throws {
        guard !["GET", "HEAD", "OPTIONS"].contains(request.method) else { return }
        let origin = request.headers["origin"]
        if let origin, origin == configuration.corsOrigin { return }
        let crossSite: Bool
        if let site = request.headers["sec-fetch-site"] {
            crossSite = site.lowercased() == "cross-site"
        } else if let origin {
            // `scheme://host[:port]`; "null" (a sandboxed or file page) has no host and never matches.
            let host = origin.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first?.lowercased()
            let own = [request.headers["host"], request.headers["x-forwarded-host"]].compactMap { $0?.lowercased() }
            crossSite = host.map { !own.contains($0) } ?? true
        } else {
            crossSite = false
        }
        guard crossSite else { return }
        throw Problem(
            status: 403, code: "crossSiteRequest", title: "Forbidden",
            detail: "changes are refused from pages of other sites"
                + (configuration.corsOrigin.map { " (only \($0) is allowed)" } ?? ""))
    }

    private func health() -> HTTPResponse {
        .json(200, Array("{\"status\":\"ok\",\"sessions\":\(sessions.count)}".utf8), headers: noStore)
    }

    private func catalog(_ request: HTTPRequest) throws -> HTTPResponse {
        let name = request.query["app"]
        guard let app = name.map({ name in configuration.apps.first { $0.name == name } }) ?? configuration.apps.first
        else {
            throw Problem(
                status: 404, code: "unknownApp", title: "Not found", detail: "no app named '\(name ?? "")'",
                choices: configuration.apps.map(\.name))
        }
        return .json(200, catalogs.catalog(of: app), headers: noStore)
    }

    let noStore = [("Cache-Control", "no-store")]

    /// The OpenAPI document (`docs/openapi.json`) as committed, compiled into the binary (`.embedInCode`).
    let openAPIDocument = PackageResources.openapi_json
}
