import Foundation
import Logging
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

    /// An API hosting `configuration.apps`, serving `staticFiles` (nil: API only), logging what goes wrong with
    /// its store to `logger`.
    public init(
        configuration: ServerConfiguration, staticFiles: StaticFiles? = nil,
        logger: Logger = Logger(label: "switchyard")
    ) {
        precondition(!configuration.apps.isEmpty, "ServerConfiguration.apps must name at least one app")
        self.configuration = configuration
        self.staticFiles = staticFiles
        sessions = SessionStore(configuration: configuration, metrics: metrics, logger: logger)
        catalogs = LockedCatalogs()
        creations = CreationRateLimiter(perMinute: configuration.sessionCreationsPerMinute, now: configuration.now)
        if let shared = configuration.archive as? any SharedSessionArchive {
            // Changes other nodes store reach this node's streams.
            shared.follow { [sessions] notice in sessions.handle(notice) }
        }
    }

    /// With an archive shared by several nodes: compares the sessions this node streams with the store and
    /// streams what other nodes stored (``NavigationServer`` does it every
    /// ``ServerConfiguration/reconcileInterval``). Nothing without one.
    public func reconcileFollowedSessions() {
        sessions.reconcile()
    }

    /// Ends sessions idle for longer than the TTL; returns how many ended.
    @discardableResult
    public func expireIdleSessions() -> Int {
        sessions.expireIdle()
    }

    /// The number of live sessions.
    public var sessionCount: Int { sessions.count }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    public func handle(_ request: HTTPRequest) throws -> HTTPResponse {
        // Latency on the monotonic clock: the wall clock may step (NTP) while a request runs.
        let started = ContinuousClock.now
        // Split on the UTF-8 bytes: splitting the String walks grapheme clusters (~5 % of a GET's CPU).
        let parts = request.path.utf8.split(separator: UInt8(ascii: "/")).map { Substring($0) }
        let matched = Self.routes.lazy.compactMap { route in route.match(parts).map { (route, $0) } }.first
        var (template, response) = withCORS(request, matched?.0) { route(request, parts, matched) }
        // No answer of the API may be taken for another type than it says (static files say it themselves).
        if template != "static" { response.headers.append(("X-Content-Type-Options", "nosniff")) }
        metrics.record(
            route: template, method: request.method, status: response.status,
            seconds: Self.seconds(started.duration(to: .now)))
        return response
    }

    /// CORS, around every answer: with ``ServerConfiguration/corsOrigin`` set, a preflight (`OPTIONS`) of an
    /// endpoint is answered here and every response names the origin; without it, nothing is added.
    private func withCORS(
        _ request: HTTPRequest, _ route: APIRoute?, _ answer: () -> (String, HTTPResponse)
    ) -> (String, HTTPResponse) {
        guard let origin = configuration.corsOrigin else { return answer() }
        var (template, response): (String, HTTPResponse)
        if request.method == "OPTIONS", let route {
            template = route.template
            response = HTTPResponse(
                status: 204,
                headers: [
                    ("Access-Control-Allow-Methods", (route.allowed + ["OPTIONS"]).joined(separator: ", ")),
                    ("Access-Control-Allow-Headers", "Content-Type, If-Match, Idempotency-Key, Last-Event-ID"),
                    ("Access-Control-Max-Age", "600"),
                ])
        } else {
            (template, response) = answer()
        }
        response.headers.append(("Access-Control-Allow-Origin", origin))
        response.headers.append(("Vary", "Origin"))
        return (template, response)
    }

    /// The answer of the matched endpoint, a static file, or the problem; with the metrics' route label.
    private func route(
        _ request: HTTPRequest, _ parts: [Substring], _ matched: (APIRoute, APIRoute.Parameters)?
    ) -> (String, HTTPResponse) {
        do {
            if parts.first == "api" {
                try refuseCrossSite(request)
                try checkIdempotencyKey(request)
            }
            if let (route, path) = matched {
                return (route.template, try route.answer(request, path: path, api: self))
            }
            if parts.first == "api" {
                throw Problem.notFound("no API endpoint at \(request.path)", code: "noSuchEndpoint")
            }
            return ("static", try staticResponse(request, parts: parts.map(String.init)))
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

    /// 403 for a change (any method but GET, HEAD and OPTIONS) sent by a page of another site, unless its origin is
    /// the configured CORS origin. Browsers say where a request comes from in `Sec-Fetch-Site`, which holds behind
    /// proxies too; without it (older browsers) the `Origin`'s host must be the request's `Host` (or
    /// `X-Forwarded-Host`). Clients that are not browsers send neither header and are not affected.
    private func refuseCrossSite(_ request: HTTPRequest) throws {
        switch request.method {
        case "GET", "HEAD", "OPTIONS": return
        default: break
        }
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

    /// `GET /healthz`, liveness: the process answers. Never touches the store (a store that hangs must not make
    /// an orchestrator restart a server that would recover with it).
    /// 400 for an `Idempotency-Key` that is empty, longer than 255 bytes or has characters other than visible ASCII: keys are
    /// remembered per session, so their size is bounded like everything else a client makes the server keep.
    private func checkIdempotencyKey(_ request: HTTPRequest) throws {
        guard let key = request.headers["idempotency-key"] else { return }
        let bytes = key.utf8
        guard
            bytes.isEmpty || bytes.count > Self.maxIdempotencyKeyBytes
                || !bytes.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return }
        throw Problem(
            status: 400, code: "invalidIdempotencyKey", title: "Invalid request",
            detail: "an Idempotency-Key is 1 to \(Self.maxIdempotencyKeyBytes) visible ASCII characters, such as a UUID"
        )
    }

    /// The longest `Idempotency-Key` accepted.
    static let maxIdempotencyKeyBytes = 255

    func health() -> HTTPResponse {
        .json(200, Array("{\"status\":\"ok\",\"sessions\":\(sessions.count)}".utf8), headers: noStore)
    }

    /// `GET /readyz`, readiness: 200 when the store takes reads and writes, else 503 saying why (`readOnly`: a
    /// full disk, reads and deletions still work; `unavailable`: the store does not answer; `failing`: its latest
    /// use failed, less than 10 s ago). Asks the store nothing it would have to wait for.
    func readiness() -> HTTPResponse {
        let condition = configuration.archive?.condition ?? .ready
        sessions.health.observe(condition)
        let failing = sessions.health.failing
        let (status, reason): (String, String?) =
            switch condition {
            case .unavailable(let reason): ("unavailable", reason)
            case .readOnly(let reason): ("readOnly", reason)
            case .ready: failing == nil ? ("ready", nil) : ("failing", "its latest use failed")
            }
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.member("status", status)
        writer.member("sessions", sessions.count)
        writer.key("store")
        writer.beginObject()
        writer.member("durable", configuration.archive != nil)
        if let reason { writer.member("reason", reason) }
        if let failing {
            writer.key("lastFailure")
            writer.beginObject()
            writer.member("operation", failing.operation)
            writer.member("incident", failing.incident.id)
            writer.member("secondsAgo", max(0, Int(configuration.now() - failing.time)))
            writer.endObject()
        }
        writer.endObject()
        writer.endObject()
        return .json(status == "ready" ? 200 : 503, writer.bytes, headers: noStore)
    }

    func catalog(_ request: HTTPRequest) throws -> HTTPResponse {
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

    /// `GET /api/openapi.json`: cacheable, revalidated by its ETag (a hash of the document), 304 when unchanged;
    /// gzip-compressed (compressed once) for clients that accept it.
    func openAPI(_ request: HTTPRequest) -> HTTPResponse {
        let packed = ContentCoding.acceptsGzip(request) ? openAPIGzip : nil
        let etag = packed == nil ? openAPIETag : ContentCoding.gzipTag(openAPIETag)
        let headers = [
            ("ETag", etag), ("Cache-Control", "max-age=300, must-revalidate"), ("Vary", "Accept-Encoding"),
        ]
        if let match = request.headers["if-none-match"], EntityTag.noneMatch(match, etag) {
            return HTTPResponse(status: 304, headers: headers)
        }
        guard let packed else { return .json(200, openAPIDocument, headers: headers) }
        return .json(200, packed, headers: headers + [("Content-Encoding", "gzip")])
    }

    /// The OpenAPI document as gzip (nil if zlib failed: then it is sent as is).
    let openAPIGzip = ContentCoding.gzip(PackageResources.openapi_json)

    /// A strong ETag of the OpenAPI document: 64-bit FNV-1a of its bytes.
    let openAPIETag: String = {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in PackageResources.openapi_json {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "\"" + String(hash, radix: 16) + "\""
    }()
}
