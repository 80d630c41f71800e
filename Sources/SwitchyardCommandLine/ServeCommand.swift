import ArgumentParser

/// `serve`: runs the API and the page for the program's apps until SIGTERM/SIGINT (``run()``). Each option is typed
/// and has its default here, once, which `--help` shows; ``Settings`` resolves them against the environment. Each
/// option's `help` is its documentation (docs/configuration.md says more, and lists the same defaults).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve the apps, the REST API and the web page (the default command).",
        discussion: """
            Every option --NAME can also be set with the environment variable SWITCHYARD_NAME (upper case, - as _), \
            e.g. SWITCHYARD_MAX_SESSIONS=5000: a flag wins over its variable, the variable over the default.
            """)

    @Option(
        name: .customLong("app"),
        help:
            "An app definition to serve (JSON or YAML), or a folder of them (its other JSON and YAML files are skipped); repeatable. They come first, the first being the default app; SIGHUP reads them again (env SWITCHYARD_APPS, paths separated by ':'). (default: none)"
    )
    var apps: [String] = []

    @Option(
        name: .customLong("rollout"),
        help:
            "Which versions of an app new sessions get: APP=VERSION, or a split APP=V1:WEIGHT,V2:WEIGHT; a version at weight 0 keeps its sessions (pinned), a served version not listed hands them on by migration. Repeatable (env SWITCHYARD_ROLLOUTS, separated by spaces). (default: each app's latest version)"
    )
    var rollouts: [String] = []

    @Option(
        help:
            "The app a session created without 'app' gets; every version of it is served first. (default: the first --app definition's app, else the first app built in)"
    )
    var defaultApp: OptionValue<String>?

    @Option(help: "Whether the apps built into the program (the todo demo) are served beside the --app definitions.")
    var demo: OptionValue<DemoChoice> = .standard(.on)

    @Option(help: "Address to listen on; 0.0.0.0 for all.")
    var host: OptionValue<String> = .standard("127.0.0.1")

    @Option(help: "Port to listen on; 0 picks a free one.")
    var port: OptionValue<BoundedCount<PortNumbers>> = .standard(8080)

    @Option(
        help:
            "Folder with the web page. (default: Public, else ../share/switchyard/Public beside the program, else the page of the Switchyard package the program was built with)",
        completion: .directory)
    var `public`: OptionValue<String>?

    @Option(help: "Worker threads. (default: the number of cores, with a store 4 per core and at least 8)")
    var threads: OptionValue<BoundedCount<WorkerThreads>>?

    @Option(help: "Live sessions at most.")
    var maxSessions: OptionValue<BoundedCount<Millions>> = .standard(100_000)

    @Option(help: "Idle time before a session expires, e.g. 90s, 30m, 2h.")
    var sessionTtl: OptionValue<DurationArgument> = .standard(.minutes(30))

    @Option(help: "Largest request body in bytes.")
    var maxBody: OptionValue<BoundedCount<BodyBytes>> = .standard(1_048_576)

    @Option(help: "The least severe log lines written.")
    var logLevel: OptionValue<LogLevelArgument> = .standard(.init(.info))

    @Option(help: "Log lines as text, or as JSON objects.")
    var logFormat: OptionValue<LogFormat> = .standard(.text)

    @Option(help: "Open connections at most.")
    var maxConnections: OptionValue<BoundedCount<Connections>> = .standard(10_000)

    @Option(help: "Open connections per client address.")
    var maxConnectionsPerIp: OptionValue<BoundedCount<Connections>> = .standard(256)

    @Option(help: "Open connections per client network, an IPv4 /24 or IPv6 /48.")
    var maxConnectionsPerNetwork: OptionValue<BoundedCount<Connections>> = .standard(1024)

    @Option(help: "Open event streams at most.")
    var maxStreams: OptionValue<BoundedCount<Connections>> = .standard(4096)

    @Option(help: "Close connections idle this long, e.g. 10s.")
    var idleTimeout: OptionValue<DurationArgument> = .standard(.seconds(10))

    @Option(help: "Origin allowed to call the API cross-site; without it, no CORS headers. (default: none)")
    var corsOrigin: OptionValue<String>?

    @Option(
        help:
            "Secret the admin endpoints (/api/admin/…) require as Authorization: Bearer <token>, 16 characters or more; prefer the environment, which ps does not show. (default: none, admin endpoints off)"
    )
    var adminToken: OptionValue<AdminToken>?

    @Option(help: "Time a client has to send a whole request, e.g. 30s.")
    var requestTimeout: OptionValue<DurationArgument> = .standard(.seconds(30))

    @Option(help: "Time a new connection has to send its first request's header, e.g. 5s.")
    var firstRequestTimeout: OptionValue<DurationArgument> = .standard(.seconds(5))

    @Option(help: "Sessions one client address may create per minute; 0: no limit.")
    var sessionCreateRate: OptionValue<BoundedCount<PerMinute>> = .standard(60)

    @Option(
        help:
            "Definition checks (POST /api/definitions/check, no token) one client address may ask for per minute; 0: no limit."
    )
    var definitionCheckRate: OptionValue<BoundedCount<PerMinute>> = .standard(30)

    @Option(help: "Lifetime of a session no request used after creating it.")
    var unusedSessionTtl: OptionValue<DurationArgument> = .standard(.minutes(2))

    @Option(help: "Largest state document a session may grow to, in bytes.")
    var maxDocument: OptionValue<BoundedCount<DocumentBytes>> = .standard(262_144)

    @Option(help: "Longest string in a request body, in bytes.")
    var maxField: OptionValue<BoundedCount<FieldBytes>> = .standard(4096)

    @Option(
        help:
            "History kept per session, oldest out, e.g. 256K, 1M: each version's request and state. (default: 64K in memory, 1M in a store)"
    )
    var maxHistory: OptionValue<ByteSize<HistoryBytes>>?

    @Option(
        help:
            "With --store memory, history kept of all sessions together, e.g. 256M: past it the sessions changed longest ago keep only their current version."
    )
    var maxMemoryHistory: OptionValue<ByteSize<StorageBytes>> = .standard(.megabytes(256))

    @Option(
        help:
            "Memory for the screens kept rendered between changes, across sessions, e.g. 8M; 0 renders every screen every time."
    )
    var maxRenderings: OptionValue<ByteSize<RenderingBytes>> = .standard(.megabytes(8))

    @Option(
        help:
            "sqlite (sessions survive restarts), postgres (several nodes share them; needs --database-url) or memory. (default: sqlite, postgres with --database-url)"
    )
    var store: OptionValue<StoreKind>?

    @Option(help: "Folder of the SQLite store, created if missing.")
    var data: OptionValue<FolderPath> = .standard(FolderPath("data"))

    @Option(help: "process: a change survives a crash of the process; machine: also a power loss.")
    var durability: OptionValue<DurabilityArgument> = .standard(.process)

    @Option(
        help:
            "Largest size of the store on disk (database, log and reserve), e.g. 512M, 4G; none: no cap. (default: none)"
    )
    var dataMaxSize: OptionValue<ByteSize<StorageBytes>>?

    @Option(
        help:
            "History entries the store keeps per session, or all, within --max-history. (default: 1000, 50 in memory)"
    )
    var historyRetention: OptionValue<HistoryRetention>?

    @Option(
        help:
            "PostgreSQL shared by several nodes, e.g. postgresql://switchyard@db:5432/switchyard (implies --store postgres). (default: none)"
    )
    var databaseUrl: OptionValue<DatabaseURL>?

    @Option(help: "Connections to PostgreSQL at most. (default: the thread count)")
    var databaseConnections: OptionValue<BoundedCount<DatabaseConnections>>?

    @Option(help: "Longest a request waits for PostgreSQL before it answers 503, e.g. 5s.")
    var databaseTimeout: OptionValue<DurationArgument> = .standard(.seconds(5))

    @Option(help: "With PostgreSQL: how often streamed sessions are compared with the store, e.g. 1s.")
    var reconcileInterval: OptionValue<DurationArgument> = .standard(.seconds(1))
}
