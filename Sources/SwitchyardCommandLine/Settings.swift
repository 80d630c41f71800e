import ArgumentParser
import Logging
import SwitchyardServer
import SwitchyardSessions

/// The effective configuration of `serve` (and `migrate`): each option's flag, else its environment variable, else
/// its default (``ServeCommand`` holds the defaults, ``OptionEnvironment`` reads the environment), each value checked.
struct Settings {
    let host: String
    let port: UInt16
    let publicFolder: String
    /// App definition files and folders (`--app`, `SWITCHYARD_APPS`).
    let appPaths: [String]
    /// Which versions of each app new sessions get (`--rollout`, `SWITCHYARD_ROLLOUTS`).
    let rollouts: [AppRollout]
    /// nil: the default for the store (``threads``).
    let chosenThreads: Int?
    let maxSessions: Int
    let sessionTTL: Duration
    let maxBody: Int
    let logLevel: Logger.Level
    let logFormat: LogFormat
    let corsOrigin: String?
    /// The admin endpoints' token (`--admin-token`, `SWITCHYARD_ADMIN_TOKEN`); nil: they are off.
    let adminToken: String?
    let maxConnections: Int
    let maxConnectionsPerIP: Int
    let maxConnectionsPerNetwork: Int
    let maxStreams: Int
    let idleTimeout: Duration
    let requestTimeout: Duration
    let firstRequestTimeout: Duration
    let sessionCreateRate: Int
    let definitionCheckRate: Int
    let unusedSessionTTL: Duration
    let maxDocument: Int
    let maxField: Int
    /// nil: the store's default, 256 KiB in memory, 1 MiB in a store (which keeps each version's state as well).
    let maxHistory: Int?
    let maxMemoryHistory: Int
    /// The screens kept rendered across sessions (`SessionConfiguration.maxRenderingBytes`).
    let maxRenderings: Int
    let reconcileInterval: Duration
    let store: StoreChoice

    /// Resolves every option of `command` against `environment`.
    /// - Throws: a `ValidationError` naming the flag or variable of the first bad value and what it must be.
    init(command: ServeCommand, environment: [String: String]) throws {
        let options = OptionEnvironment(variables: environment)
        host = try options.value(command.host, "host")
        port = UInt16(try options.value(command.port, "port").value)
        publicFolder = try options.value(command.public, "public") ?? PageFolder.standard
        let apps = options.list(command.apps, flag: "--app", variable: "SWITCHYARD_APPS", separator: ":")
        appPaths = apps.map(\.text)
        rollouts = try Self.rollouts(
            options.list(command.rollouts, flag: "--rollout", variable: "SWITCHYARD_ROLLOUTS", separator: " "))
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
