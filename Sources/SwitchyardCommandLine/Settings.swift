import ArgumentParser
import Logging
import SwitchyardServer
import SwitchyardSessions

/// The effective configuration of `serve` (and `migrate`): each option's flag, else its environment variable, else
/// its default (``ServeCommand`` holds the defaults, ``OptionEnvironment`` reads the environment), each value checked.
struct Settings {
    /// The address to listen on (`--host`).
    let host: String
    /// The port to listen on; 0 picks a free one (`--port`).
    let port: UInt16
    /// The folder of the web page (`--public`, else ``PageFolder/standard``).
    let publicFolder: String
    /// Whether `--public` or `SWITCHYARD_PUBLIC` named ``publicFolder`` (else it was looked for).
    let publicFolderIsChosen: Bool
    /// App definition files and folders (`--app`, `SWITCHYARD_APPS`).
    let appPaths: [String]
    /// Which versions of each app new sessions get (`--rollout`, `SWITCHYARD_ROLLOUTS`).
    let rollouts: [AppRollout]
    /// The app a session created without `app` gets (`--default-app`); nil: the first app served.
    let defaultApp: String?
    /// Whether the apps built into the program are served (`--demo`).
    let servesBuiltInApps: Bool
    /// The worker threads chosen (`--threads`); nil: the default for the store (``threads``).
    let chosenThreads: Int?
    /// Live sessions at most (`--max-sessions`).
    let maxSessions: Int
    /// Idle time before a session expires (`--session-ttl`).
    let sessionTTL: Duration
    /// The largest request body in bytes (`--max-body`).
    let maxBody: Int
    /// The least severe log lines written (`--log-level`).
    let logLevel: Logger.Level
    /// Text or JSON log lines (`--log-format`).
    let logFormat: LogFormat
    /// The origin allowed to call the API cross-site (`--cors-origin`); nil: no CORS headers.
    let corsOrigin: String?
    /// The admin endpoints' token (`--admin-token`, `SWITCHYARD_ADMIN_TOKEN`); nil: they are off.
    let adminToken: String?
    /// Open connections at most (`--max-connections`).
    let maxConnections: Int
    /// Open connections per client address (`--max-connections-per-ip`).
    let maxConnectionsPerIP: Int
    /// Open connections per client network (`--max-connections-per-network`).
    let maxConnectionsPerNetwork: Int
    /// Open event streams at most (`--max-streams`).
    let maxStreams: Int
    /// How long a connection may stay idle (`--idle-timeout`).
    let idleTimeout: Duration
    /// The time a client has to send a whole request (`--request-timeout`).
    let requestTimeout: Duration
    /// The time a new connection has to send its first request's header (`--first-request-timeout`).
    let firstRequestTimeout: Duration
    /// Sessions one client address may create per minute; 0: no limit (`--session-create-rate`).
    let sessionCreateRate: Int
    /// Definition checks one client address may ask for per minute; 0: no limit (`--definition-check-rate`).
    let definitionCheckRate: Int
    /// The lifetime of a session no request used after creating it (`--unused-session-ttl`).
    let unusedSessionTTL: Duration
    /// The largest state document a session may grow to, in bytes (`--max-document`).
    let maxDocument: Int
    /// The longest string in a request body, in bytes (`--max-field`).
    let maxField: Int
    /// History kept per session, in bytes (`--max-history`); nil: the store's default, 64 KiB in memory, 1 MiB in a store (which keeps each version's state as well).
    let maxHistory: Int?
    /// With the memory store, history kept of all sessions together, in bytes (`--max-memory-history`).
    let maxMemoryHistory: Int
    /// The screens kept rendered across sessions (`SessionConfiguration.maxRenderingBytes`).
    let maxRenderings: Int
    /// How often streamed sessions are compared with PostgreSQL (`--reconcile-interval`).
    let reconcileInterval: Duration
    /// The store and its settings (`--store`, `--database-url`, `--data`, …).
    let store: StoreChoice

    /// Resolves every option of `command` against `environment`.
    /// - Throws: a `ValidationError` naming the flag or variable of the first bad value and what it must be.
    init(command: ServeCommand, environment: [String: String]) throws {
        let options = OptionEnvironment(variables: environment)
        host = try options.value(command.host, "host")
        port = UInt16(try options.value(command.port, "port").value)
        let chosenPublicFolder = try options.value(command.public, "public")
        publicFolder = chosenPublicFolder ?? PageFolder.standard
        publicFolderIsChosen = chosenPublicFolder != nil
        let apps = options.list(command.apps, flag: "--app", variable: "SWITCHYARD_APPS", separator: ":")
        appPaths = apps.map(\.text)
        rollouts = try Self.rollouts(
            options.list(command.rollouts, flag: "--rollout", variable: "SWITCHYARD_ROLLOUTS", separator: " "))
        defaultApp = try options.value(command.defaultApp, "default-app")
        servesBuiltInApps = try options.value(command.demo, "demo") == .on
        chosenThreads = try options.value(command.threads, "threads")?.value
        maxSessions = try options.value(command.maxSessions, "max-sessions").value
        sessionTTL = try options.value(command.sessionTtl, "session-ttl").duration
        maxBody = try options.value(command.maxBody, "max-body").value
        logLevel = try options.value(command.logLevel, "log-level").level
        logFormat = try options.value(command.logFormat, "log-format")
        corsOrigin = try options.value(command.corsOrigin, "cors-origin")
        adminToken = try options.value(command.adminToken, "admin-token")?.secret
        maxConnections = try options.value(command.maxConnections, "max-connections").value
        maxConnectionsPerIP = try options.value(command.maxConnectionsPerIp, "max-connections-per-ip").value
        maxConnectionsPerNetwork =
            try options.value(command.maxConnectionsPerNetwork, "max-connections-per-network").value
        maxStreams = try options.value(command.maxStreams, "max-streams").value
        idleTimeout = try options.value(command.idleTimeout, "idle-timeout").duration
        requestTimeout = try options.value(command.requestTimeout, "request-timeout").duration
        firstRequestTimeout = try options.value(command.firstRequestTimeout, "first-request-timeout").duration
        sessionCreateRate = try options.value(command.sessionCreateRate, "session-create-rate").value
        definitionCheckRate = try options.value(command.definitionCheckRate, "definition-check-rate").value
        unusedSessionTTL = try options.value(command.unusedSessionTtl, "unused-session-ttl").duration
        maxDocument = try options.value(command.maxDocument, "max-document").value
        maxField = try options.value(command.maxField, "max-field").value
        maxHistory = try options.value(command.maxHistory, "max-history")?.bytes
        maxMemoryHistory = try options.value(command.maxMemoryHistory, "max-memory-history").bytes
        maxRenderings = try options.value(command.maxRenderings, "max-renderings").bytes
        reconcileInterval = try options.value(command.reconcileInterval, "reconcile-interval").duration
        store = try StoreChoice(
            command: command, options: options, maxHistory: maxHistory, maxMemoryHistory: maxMemoryHistory)
    }

    /// The rollouts given, each read by ``AppRollout/parse(_:)``.
    /// - Throws: a `ValidationError` naming the flag or variable of the first that is not one.
    private static func rollouts(_ given: [(text: String, source: String)]) throws -> [AppRollout] {
        try given.map { text, source in
            switch AppRollout.parse(text) {
            case .success(let rollout): rollout
            case .failure(let error): throw ValidationError("\(source): \(error)")
            }
        }
    }
}
