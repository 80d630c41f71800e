import ArgumentParser
import Foundation
import Logging
import MicroHTTP
import SQLiteStore
import Switchyard
import SwitchyardDefinitions
import SwitchyardServer
import SwitchyardSessions

/// `serve`: runs the API and the page for the program's apps until SIGTERM/SIGINT.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve the apps, the REST API and the web page (the default command).")

    @Option(
        name: .customLong("app"),
        help:
            "An app definition to serve (JSON or YAML), or a folder of them; repeatable. They come first, the first being the default app (env SWITCHYARD_APPS, paths separated by ':'). SIGHUP reads them again."
    )
    var apps: [String] = []

    @Option(
        name: .customLong("rollout"),
        help:
            "Which versions of an app new sessions get: APP=VERSION, or a split APP=V1:WEIGHT,V2:WEIGHT; a version at weight 0 keeps its sessions (pinned). Repeatable (env SWITCHYARD_ROLLOUTS, separated by spaces; default: each app's latest version, other versions' sessions migrate)."
    )
    var rollouts: [String] = []

    @Option(help: "Address to listen on (env SWITCHYARD_HOST; default 127.0.0.1; 0.0.0.0 for all).")
    var host: String?

    @Option(help: "Port to listen on; 0 picks a free one (env SWITCHYARD_PORT; default 8080).")
    var port: String?

    @Option(
        help:
            "Folder with the web page (env SWITCHYARD_PUBLIC; default Public, else the page of the Switchyard package it was built with)."
    )
    var `public`: String?

    @Option(
        help:
            "Worker threads (env SWITCHYARD_THREADS; default: the number of cores, 4 per core and at least 8 with the sqlite store)."
    )
    var threads: String?

    @Option(help: "Live sessions at most (env SWITCHYARD_MAX_SESSIONS; default 100000).")
    var maxSessions: String?

    @Option(help: "Idle time before a session expires, e.g. 90s, 30m, 2h (env SWITCHYARD_SESSION_TTL; default 30m).")
    var sessionTtl: String?

    @Option(help: "Largest request body in bytes (env SWITCHYARD_MAX_BODY; default 1048576).")
    var maxBody: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical (env SWITCHYARD_LOG_LEVEL; default info).")
    var logLevel: String?

    @Option(help: "text or json (env SWITCHYARD_LOG_FORMAT; default text).")
    var logFormat: String?

    @Option(help: "Open connections at most (env SWITCHYARD_MAX_CONNECTIONS; default 10000).")
    var maxConnections: String?

    @Option(help: "Open connections per client address (env SWITCHYARD_MAX_CONNECTIONS_PER_IP; default 256).")
    var maxConnectionsPerIp: String?

    @Option(
        help:
            "Open connections per client network, an IPv4 /24 or IPv6 /48 (env SWITCHYARD_MAX_CONNECTIONS_PER_NETWORK; default 1024)."
    )
    var maxConnectionsPerNetwork: String?

    @Option(help: "Open event streams at most (env SWITCHYARD_MAX_STREAMS; default 4096).")
    var maxStreams: String?

    @Option(help: "Close connections idle this long, e.g. 10s (env SWITCHYARD_IDLE_TIMEOUT; default 10s).")
    var idleTimeout: String?

    @Option(help: "Origin allowed to call the API cross-site (env SWITCHYARD_CORS_ORIGIN; default: no CORS headers).")
    var corsOrigin: String?

    @Option(
        help:
            "Secret the admin endpoints (/api/admin/…) require as Authorization: Bearer <token>, 16 characters or more; prefer the environment, which ps does not show (env SWITCHYARD_ADMIN_TOKEN; default: admin endpoints off)."
    )
    var adminToken: String?

    @Option(help: "Time a client has to send a whole request, e.g. 30s (env SWITCHYARD_REQUEST_TIMEOUT; default 30s).")
    var requestTimeout: String?

    @Option(
        help:
            "Time a new connection has to send its first request's header, e.g. 5s (env SWITCHYARD_FIRST_REQUEST_TIMEOUT; default 5s)."
    )
    var firstRequestTimeout: String?

    @Option(
        help:
            "Sessions one client address may create per minute; 0: no limit (env SWITCHYARD_SESSION_CREATE_RATE; default 60)."
    )
    var sessionCreateRate: String?

    @Option(
        help:
            "Definition checks (POST /api/definitions/check, no token) one client address may ask for per minute; 0: no limit (env SWITCHYARD_DEFINITION_CHECK_RATE; default 30)."
    )
    var definitionCheckRate: String?

    @Option(
        help: "Lifetime of a session no request used after creating it (env SWITCHYARD_UNUSED_SESSION_TTL; default 2m)."
    )
    var unusedSessionTtl: String?

    @Option(
        help: "Largest state document a session may grow to, in bytes (env SWITCHYARD_MAX_DOCUMENT; default 262144).")
    var maxDocument: String?

    @Option(help: "Longest string in a request body, in bytes (env SWITCHYARD_MAX_FIELD; default 4096).")
    var maxField: String?

    @Option(
        help:
            "History kept per session, oldest out, e.g. 256K, 1M: each version's request and state (env SWITCHYARD_MAX_HISTORY; default 256K in memory, 1M in a store)."
    )
    var maxHistory: String?

    @Option(
        help:
            "With --store memory, history kept of all sessions together, e.g. 256M: past it the sessions changed longest ago keep only their current version (env SWITCHYARD_MAX_MEMORY_HISTORY; default 256M)."
    )
    var maxMemoryHistory: String?

    @Option(
        help:
            "Memory for the screens kept rendered between changes, across sessions, e.g. 8M; 0 renders every screen every time (env SWITCHYARD_MAX_RENDERINGS; default 8M)."
    )
    var maxRenderings: String?

    @Option(
        help:
            "sqlite (sessions survive restarts), postgres (several nodes share them; needs --database-url) or memory (env SWITCHYARD_STORE; default sqlite, postgres with a database URL)."
    )
    var store: String?

    @Option(help: "Folder of the SQLite store, created if missing (env SWITCHYARD_DATA; default data).")
    var data: String?

    @Option(
        help:
            "process: a change survives a crash of the process; machine: also a power loss (env SWITCHYARD_DURABILITY; default process)."
    )
    var durability: String?

    @Option(
        help:
            "Largest size of the store on disk (database, log and reserve), e.g. 512M, 4G (env SWITCHYARD_DATA_MAX_SIZE; default: no cap)."
    )
    var dataMaxSize: String?

    @Option(
        help:
            "History entries the store keeps per session, or all, within --max-history (env SWITCHYARD_HISTORY_RETENTION; default 1000, 200 in memory)."
    )
    var historyRetention: String?

    @Option(
        help:
            "PostgreSQL shared by several nodes, e.g. postgresql://switchyard@db:5432/switchyard (env SWITCHYARD_DATABASE_URL; implies --store postgres)."
    )
    var databaseUrl: String?

    @Option(help: "Connections to PostgreSQL at most (env SWITCHYARD_DATABASE_CONNECTIONS; default: the thread count).")
    var databaseConnections: String?

    @Option(
        help:
            "Longest a request waits for PostgreSQL before it answers 503, e.g. 5s (env SWITCHYARD_DATABASE_TIMEOUT; default 5s)."
    )
    var databaseTimeout: String?

    @Option(
        help:
            "With PostgreSQL: how often streamed sessions are compared with the store, e.g. 1s (env SWITCHYARD_RECONCILE_INTERVAL; default 1s)."
    )
    var reconcileInterval: String?

    mutating func run() throws {
        // Until the reload is ready to answer it (after the start), a SIGHUP changes nothing rather than stopping us.
        signal(SIGHUP, SIG_IGN)
        let settings = try Settings(command: self, environment: ProcessInfo.processInfo.environment)
        let logger = settings.makeLogger()
        let program = CommandLineProgram.current
        // The apps are checked before anything is opened: declarations that cannot work stop the start.
        let (apps, definitions) = try settings.checkedApps(of: program, logger: logger)
        for file in definitions.files {
            logger.info(
                "\(file.path): serving the app '\(file.app?.name ?? "")' at version \(file.app?.version ?? 1)")
        }
        // Before the store is opened, so that a wrong flag leaves no data folder behind.
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: settings.publicFolder, isDirectory: &isFolder), isFolder.boolValue
        else {
            throw ValidationError("the web page folder '\(settings.publicFolder)' does not exist (use --public)")
        }
        var apiConfiguration = ServerConfiguration(apps: apps)
        apiConfiguration.maxSessions = settings.maxSessions
        apiConfiguration.sessionTTL = settings.sessionTTL
        apiConfiguration.corsOrigin = settings.corsOrigin
        apiConfiguration.adminToken = settings.adminToken
        apiConfiguration.sessionCreationsPerMinute = settings.sessionCreateRate
        apiConfiguration.definitionChecksPerMinute = settings.definitionCheckRate
        apiConfiguration.unusedSessionTTL = settings.unusedSessionTTL
        apiConfiguration.maxDocumentBytes = settings.maxDocument
        apiConfiguration.maxRenderingBytes = settings.maxRenderings
        apiConfiguration.maxFieldBytes = settings.maxField
        apiConfiguration.reconcileInterval = settings.reconcileInterval
        apiConfiguration.rollouts = settings.rollouts
        let archive = try settings.openedStore(logger: logger)
        defer { archive.close() }
        apiConfiguration.archive = archive
        let server: NavigationServer
        do {
            server = try NavigationServer(
                configuration: apiConfiguration, transport: settings.httpConfiguration, page: settings.publicFolder,
                logger: logger)
        } catch {
            // The apps, rollouts and token were checked above, the folder too: what is left says itself.
            throw ValidationError("\(error)")
        }
        do {
            try server.start()
        } catch {
            logger.critical("\(error)")
            throw ExitCode(1)
        }
        logger.info(
            "\(program.name) \(program.version) serving \(apps.map(\.identity.description).joined(separator: ", ")) on http://\(settings.displayHost):\(server.port)",
            metadata: settings.metadata(port: server.port))
        // Written unbuffered: print() is block-buffered when stdout is not a terminal (containers, CI logs).
        let hint = "Open http://\(settings.displayHost):\(server.port) in a browser (Ctrl-C stops).\n"
        FileHandle.standardOutput.write(Data(hint.utf8))
        let reloader = DefinitionReloader(
            paths: settings.appPaths, served: definitions.apps, builtIn: program.apps, server: server, logger: logger)
        let hangUp = reloader.watchHangUp()
        defer { hangUp.cancel() }
        if !server.waitForTermination() { throw ExitCode(1) }
        logger.info("stopped", metadata: ["store": "\(settings.storeDescription)"])
    }
}
