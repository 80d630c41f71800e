import Foundation
import Logging
import MicroHTTP
import Switchyard
import SwitchyardSessions
import Synchronization

/// The REST/JSON API: one navigation engine per session behind HTTP, plus the static page.
///
/// Routes: `POST /api/sessions`, `GET|DELETE /api/sessions/{id}`, `POST /api/sessions/{id}/transitions|events|deeplinks`,
/// `GET /api/sessions/{id}/stream|history`, `GET /api/catalog`, `GET /api/openapi.json`, `GET /healthz`,
/// `GET /metrics`; anything else is served from the static folder (`/` and `/s/{id}` get `index.html`).
/// The sessions themselves (store, pipeline, sync) are the session layer's (`SwitchyardSessions`); this type decodes
/// requests for it and renders what it answers. Every refusal becomes an `application/problem+json` answer, in one
/// place (``response(to:session:)``), and leaves the session unchanged.
public final class SwitchyardAPI: HTTPHandler {
    let configuration: ServerConfiguration
    let sessions: LiveSessions
    /// The session layer's change pipeline, answering as ``SessionReplies`` renders.
    let changes: ChangePipeline
    let metrics: Metrics
    let staticFiles: StaticFiles?
    let catalogs: AppCatalogs
    /// The explored graphs traffic coverage compares with, per app version.
    let coverageGraphs: CoverageGraphs
    /// The session layer's creations (once per idempotency key), answering as ``SessionReplies`` renders.
    let newSessions: SessionCreations
    let creations: ClientRateLimiter
    /// Definition checks per client address.
    let definitionChecks: ClientRateLimiter
    /// Definition checks running now.
    let definitionChecksRunning = Mutex<Int>(0)
    let cors: CORSPolicy
    /// The admin endpoints' token; nil: they are off.
    let adminToken: AdminToken?
    let crossSite: CrossSiteRefusal
    /// The configured and published apps, and the admin changes of what is published.
    let releases: AppReleases
    /// The latest replay of each candidate app version on this node.
    let replays = CandidateReplays()

    /// Serves `apps` (the first the default) in place of the configured ones from now on, together with the versions
    /// published through the admin API, unless they have errors or a stored session of an app named in `changed`
    /// could not be restored under them (see ``AppReload``). Sessions running keep running.
    public func reload(apps: [NavigationApp], checking changed: Set<String>) -> AppReload {
        let outcome = releases.reload(configured: apps, checking: changed)
        if outcome == .reloaded {
            catalogs.forget()
            coverageGraphs.forget()
        }
        return outcome
    }

    /// Goes over every stored session under the served apps (the published ones included): a dry run, or with
    /// `apply` the migration of those that migrate (``SwitchyardSessions/LiveSessions/migrateStored(apply:)``).
    package func migrateStored(apply: Bool) -> MigrationReport {
        releases.follow()
        return sessions.migrateStored(apply: apply)
    }

    /// Serves what the store's published apps say, when another node changed them (``NavigationServer`` does it
    /// every ``ServerConfiguration/registryPollInterval`` with a shared archive, and once at its start).
    public func followPublishedApps() {
        releases.follow()
    }

    /// An API hosting `configuration.apps`, serving `staticFiles` (nil: API only), logging what goes wrong with
    /// its store to `logger`.
    public init(
        configuration: ServerConfiguration, staticFiles: StaticFiles? = nil,
        logger: Logger = Logger(label: "switchyard")
    ) {
        self.configuration = configuration
        self.staticFiles = staticFiles
        sessions = LiveSessions(configuration: configuration.sessions, logger: logger)
        let replies = SessionReplies(
            unusedSessionTTL: configuration.unusedSessionTTL, sessionTTL: configuration.sessionTTL)
        changes = ChangePipeline(sessions: sessions, rendering: replies)
        newSessions = SessionCreations(sessions: sessions, rendering: replies)
        metrics = Metrics()
        let catalogs = AppCatalogs()
        self.catalogs = catalogs
        let coverageGraphs = CoverageGraphs(limits: configuration.coverageExploration)
        self.coverageGraphs = coverageGraphs
        releases = AppReleases(
            configured: configuration.apps, rollouts: configuration.rollouts, sessions: sessions,
            compiler: .definitions,
            settle: sessions.archive.shared == nil ? 0 : 3 * Self.seconds(configuration.registryPollInterval),
            logger: logger, now: configuration.now,
            changed: { [sessions] in
                catalogs.forget()
                coverageGraphs.retain(Set(sessions.servedApps.apps.apps.map(\.identity)))
            })
        creations = ClientRateLimiter(perMinute: configuration.sessionCreationsPerMinute, now: configuration.now)
        definitionChecks = ClientRateLimiter(
            perMinute: configuration.definitionChecksPerMinute, now: configuration.now)
        cors = CORSPolicy(origin: configuration.corsOrigin)
        adminToken = AdminToken(configuration.adminToken)
        crossSite = CrossSiteRefusal(allowedOrigin: configuration.corsOrigin)
    }

    /// With an archive shared by several nodes: compares the sessions this node streams with the store and
    /// streams what other nodes stored (``NavigationServer`` does it every
    /// ``SwitchyardSessions/SessionConfiguration/reconcileInterval``). Nothing without one.
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
        var (template, response) = cors.around(request, matched?.0) { route(request, parts, matched) }
        if template != "static" { response.headers += SecurityHeaders.api }
        metrics.record(
            route: template, method: request.method, status: response.status,
            seconds: Self.seconds(started.duration(to: .now)))
        return response
    }

    /// The answer of the matched endpoint, a static file, or the problem; with the metrics' route label.
    private func route(
        _ request: HTTPRequest, _ parts: [Substring], _ matched: (APIRoute, APIRoute.Parameters)?
    ) -> (String, HTTPResponse) {
        do {
            if parts.first == "api" {
                try crossSite.check(request)
                try IdempotencyKey.check(request)
            }
            if let (route, path) = matched {
                // Without a token the admin endpoints are not there, whatever the method.
                if adminToken == nil, route.isAdmin {
                    throw Problem.notFound("no API endpoint at \(request.path)", code: "noSuchEndpoint")
                }
                do {
                    return (route.template, try route.answer(request, path: path, api: self))
                } catch {
                    return ("error", response(to: error, session: path.id))
                }
            }
            if parts.first == "api" {
                throw Problem.notFound("no API endpoint at \(request.path)", code: "noSuchEndpoint")
            }
            return ("static", try staticResponse(request, parts: parts.map(String.init)))
        } catch {
            return ("error", response(to: error, session: ""))
        }
    }

    /// The one place an error becomes an answer: its problem document (``ProblemRendering``), or 500 `internal`.
    func response(to error: any Error, session: String) -> HTTPResponse {
        Problem(rendering: error, session: session).response
    }

    /// `GET /healthz`, liveness: the process answers. Never touches the store (a store that hangs must not make
    /// an orchestrator restart a server that would recover with it).
    func health() -> HTTPResponse {
        .json(200, Array("{\"status\":\"ok\",\"sessions\":\(sessions.count)}".utf8), headers: noStore)
    }

    /// `GET /readyz`, readiness: 200 when the store takes reads and writes, else 503 saying why (`readOnly`: a
    /// full disk, reads and deletions still work; `unavailable`: the store does not answer; `failing`: its latest
    /// use failed, less than 10 s ago). Asks the store nothing it would have to wait for.
    func readiness() -> HTTPResponse {
        let readiness = sessions.readiness()
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.member("status", readiness.status.rawValue)
        writer.member("sessions", sessions.count)
        writer.key("store")
        writer.beginObject()
        writer.member("durable", readiness.durable)
        if let reason = readiness.reason { writer.member("reason", reason) }
        if let failure = readiness.lastFailure {
            writer.key("lastFailure")
            writer.beginObject()
            writer.member("operation", failure.operation)
            writer.member("incident", failure.incident)
            writer.member("secondsAgo", failure.secondsAgo)
            writer.endObject()
        }
        writer.endObject()
        writer.endObject()
        return .json(readiness.status == .ready ? 200 : 503, writer.bytes, headers: noStore)
    }

    func catalog(_ request: HTTPRequest) throws -> HTTPResponse {
        let name = request.query["app"]
        let (apps, generation) = sessions.servedApps
        guard let app = apps.current(name ?? apps.names[0]) else {
            throw Problem(
                status: 404, code: "unknownApp", title: "Not found", detail: "no app named '\(name ?? "")'",
                choices: apps.names)
        }
        return .json(200, catalogs.catalog(of: app, generation: generation), headers: noStore)
    }

    /// `GET /api/sessions/{id}/catalog`: the catalog of the app version the session runs (as served now).
    func catalog(ofSession id: String) throws -> HTTPResponse {
        let session = try sessions.session(id)
        let (apps, generation) = sessions.servedApps
        guard let app = apps.app(session.appVersion) else {
            throw Problem(
                status: 404, code: "unknownApp", title: "Not found",
                detail: "the session's app \(session.appVersion) is not served any more", choices: apps.names)
        }
        return .json(200, catalogs.catalog(of: app, generation: generation), headers: noStore)
    }

    /// `Cache-Control: no-store`, which every answer about a session carries.
    static let noStore = [("Cache-Control", "no-store")]
    let noStore = SwitchyardAPI.noStore

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
