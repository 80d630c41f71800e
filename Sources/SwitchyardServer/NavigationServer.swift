import Logging
import MicroHTTP
import Switchyard
import SwitchyardSessions

/// Serves navigation apps over HTTP: the REST API, live updates, the web page, and the expiry of idle sessions.
///
/// Everything a process needs to serve its own coordinators:
///
/// ```swift
/// import SwitchyardServer
///
/// let server = try NavigationServer(apps: [MyApp.app], port: 8080, page: "Public")
/// try server.start()
/// print("serving on http://127.0.0.1:\(server.port)")
/// server.waitForTermination()  // until SIGTERM or SIGINT; then it stops gracefully
/// ```
///
/// Limits have production defaults (``ServerConfiguration``, `HTTPServerConfiguration`); pass your own to change
/// them. The server expires idle sessions by itself while it runs.
public final class NavigationServer: Sendable {
    /// The REST API (also usable in process: ``SwitchyardAPI/handle(_:)``).
    public let api: SwitchyardAPI
    private let http: HTTPServer
    /// Expiry, and with a shared store reconciling and following published apps, while the server runs.
    private let maintenance: SessionMaintenance

    /// A server for `configuration`'s apps on the transport settings `transport`, serving the web page from the
    /// folder `page` (nil: the API only).
    /// - Throws: ``AppCheckFailure`` when an app's declarations cannot work (``Switchyard/NavigationApp/check()``);
    ///   ``SwitchyardSessions/RolloutError`` when a rollout names an app version not served; ``AdminTokenError`` for an
    ///   admin token too short to keep the admin endpoints safe; an error when `page` is not a folder.
    public init(
        configuration: ServerConfiguration, transport: HTTPServerConfiguration = HTTPServerConfiguration(),
        page: String? = nil, logger: Logger = Logger(label: "switchyard")
    ) throws {
        if let failure = AppCheckFailure(checking: configuration.apps) { throw failure }
        _ = try ServedApps(configuration.apps, rollouts: configuration.rollouts)  // each names served versions
        if let token = configuration.adminToken, AdminToken(token) == nil {
            throw AdminTokenError.tooShort(minimum: AdminToken.minimumLength)
        }
        api = SwitchyardAPI(
            configuration: configuration, staticFiles: try page.map { try StaticFiles(root: $0) }, logger: logger)
        http = HTTPServer(configuration: transport, handler: api, logger: logger)
        maintenance = SessionMaintenance(
            sessions: api.sessions, releases: api.releases, sessionTTL: configuration.sessionTTL,
            unusedSessionTTL: configuration.unusedSessionTTL, reconcileInterval: configuration.reconcileInterval,
            registryPollInterval: configuration.registryPollInterval)
    }

    /// A server for `apps` (the first is the default) on `host`:`port` with every other setting at its default.
    public convenience init(
        apps: [NavigationApp], host: String = "127.0.0.1", port: UInt16 = 8080, page: String? = nil
    ) throws {
        var transport = HTTPServerConfiguration()
        transport.host = host
        transport.port = port
        try self.init(configuration: ServerConfiguration(apps: apps), transport: transport, page: page)
    }

    /// Serves the app versions published in the store, then binds the address and starts serving and expiring
    /// sessions (and, with a shared archive, reconciling the streamed ones and following what other nodes publish),
    /// on background threads.
    public func start() throws {
        api.followPublishedApps()
        try http.start()
        maintenance.start()
    }

    /// The bound port (useful with port 0); 0 before ``start()``.
    public var port: UInt16 { http.port }

    /// Stops gracefully (see `HTTPServer.stop()`); returns whether it stopped cleanly.
    @discardableResult
    public func stop() -> Bool {
        maintenance.stop()
        return http.stop()
    }

    /// Blocks until SIGTERM or SIGINT (or ``stop()``), then stops gracefully; returns whether it stopped cleanly.
    @discardableResult
    public func waitForTermination() -> Bool {
        let clean = http.waitForTermination()
        maintenance.stop()
        return clean
    }
}
