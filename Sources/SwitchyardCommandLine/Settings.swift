import ArgumentParser
import Logging
import MicroHTTP
import SQLiteStore
import SwitchyardServer
import SwitchyardSessions

/// The effective configuration: flags, else environment variables, else defaults — each value checked.
struct Settings {
    var host = "127.0.0.1"
    var port: UInt16 = 8080
    var publicFolder = PageFolder.standard
    /// App definition files and folders (`--app`, `SWITCHYARD_APPS`).
    var appPaths: [String] = []
    /// nil: the default for the store (``defaultThreads``).
    var chosenThreads: Int?
    var maxSessions = 100_000
    var sessionTTL: Duration = .seconds(30 * 60)
    var maxBody = 1 << 20
    var logLevel = Logger.Level.info
    var logFormat = "text"
    var corsOrigin: String?
    /// The admin endpoints' token (`--admin-token`, `SWITCHYARD_ADMIN_TOKEN`); nil: they are off.
    var adminToken: String?
    var maxConnections = 10_000
    var maxConnectionsPerIP = 256
    var maxConnectionsPerNetwork = 1024
    var maxStreams = 4096
    var idleTimeout: Duration = .seconds(10)
    var requestTimeout: Duration = .seconds(30)
    var firstRequestTimeout: Duration = .seconds(5)
    var sessionCreateRate = 60
    var definitionCheckRate = 30
    var unusedSessionTTL: Duration = .seconds(2 * 60)
    var maxDocument = 256 * 1024
    var maxField = 4096
    /// nil: 64 KiB in memory, 1 MiB in a store (which keeps each version's state as well).
    var maxHistory: Int?
    var maxMemoryHistory = 256 << 20
    /// The screens kept rendered across sessions (`SessionConfiguration.maxRenderingBytes`).
    var maxRenderings = 8 << 20
    var store = StoreChoice.sqlite(folder: "data", durability: .process, maxBytes: nil, limits: .standard)
    var reconcileInterval: Duration = .seconds(1)
    /// Which versions of each app new sessions get (`--rollout`, `SWITCHYARD_ROLLOUTS`).
    var rollouts: [AppRollout] = []

    init(command: ServeCommand, environment: [String: String]) throws {
        func value(_ flag: String?, _ name: String) -> (String, String)? {
            if let flag { return (flag, "--" + name) }
            let key = "SWITCHYARD_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
            return environment[key].map { ($0, key) }
        }
        if let (text, _) = value(command.host, "host") { host = text }
        if let (text, source) = value(command.port, "port") {
            port = try Self.number(text, source, in: 0...65_535).map(UInt16.init) ?? port
        }
        if let (text, _) = value(command.public, "public") { publicFolder = text }
        if !command.apps.isEmpty {
            appPaths = command.apps
        } else if let list = environment["SWITCHYARD_APPS"], !list.isEmpty {
            appPaths = list.split(separator: ":").map(String.init)
        }
        let rollouts = command.rollouts.map { ($0, "--rollout") }
        let listed = environment["SWITCHYARD_ROLLOUTS"].map { list in
            list.split(separator: " ").map { (String($0), "SWITCHYARD_ROLLOUTS") }
        }
        for (text, source) in rollouts.isEmpty ? listed ?? [] : rollouts {
            switch AppRollout.parse(text) {
            case .success(let rollout): self.rollouts.append(rollout)
            case .failure(let error): throw ValidationError("\(source): \(error)")
            }
        }
        if let (text, source) = value(command.threads, "threads") {
            chosenThreads = try Self.number(text, source, in: 1...256)
        }
        if let (text, source) = value(command.maxSessions, "max-sessions") {
            maxSessions = try Self.number(text, source, in: 1...10_000_000) ?? maxSessions
        }
        if let (text, source) = value(command.sessionTtl, "session-ttl") {
            sessionTTL = try Self.duration(text, source)
        }
        if let (text, source) = value(command.maxBody, "max-body") {
            maxBody = try Self.number(text, source, in: 1024...(64 << 20)) ?? maxBody
        }
        if let (text, source) = value(command.logLevel, "log-level") {
            guard let level = Logger.Level(rawValue: text.lowercased()) else {
                throw ValidationError("\(source) must be one of trace, debug, info, notice, warning, error, critical")
            }
            logLevel = level
        }
        if let (text, source) = value(command.logFormat, "log-format") {
            guard text == "text" || text == "json" else { throw ValidationError("\(source) must be text or json") }
            logFormat = text
        }
        if let (text, _) = value(command.corsOrigin, "cors-origin") { corsOrigin = text }
        if let (text, source) = value(command.adminToken, "admin-token"), !text.isEmpty {
            guard text.count >= 16, text.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline }) else {
                throw ValidationError("\(source) must be at least 16 characters, without spaces (openssl rand -hex 32)")
            }
            adminToken = text
        }
        if let (text, source) = value(command.maxConnections, "max-connections") {
            maxConnections = try Self.number(text, source, in: 1...1_000_000) ?? maxConnections
        }
        if let (text, source) = value(command.maxConnectionsPerIp, "max-connections-per-ip") {
            maxConnectionsPerIP = try Self.number(text, source, in: 1...1_000_000) ?? maxConnectionsPerIP
        }
        if let (text, source) = value(command.maxConnectionsPerNetwork, "max-connections-per-network") {
            maxConnectionsPerNetwork =
                try Self.number(text, source, in: 1...1_000_000) ?? maxConnectionsPerNetwork
        }
        if let (text, source) = value(command.maxStreams, "max-streams") {
            maxStreams = try Self.number(text, source, in: 1...1_000_000) ?? maxStreams
        }
        if let (text, source) = value(command.idleTimeout, "idle-timeout") {
            idleTimeout = try Self.duration(text, source)
        }
        if let (text, source) = value(command.requestTimeout, "request-timeout") {
            requestTimeout = try Self.duration(text, source)
        }
        if let (text, source) = value(command.firstRequestTimeout, "first-request-timeout") {
            firstRequestTimeout = try Self.duration(text, source)
        }
        if let (text, source) = value(command.sessionCreateRate, "session-create-rate") {
            sessionCreateRate = try Self.number(text, source, in: 0...1_000_000) ?? sessionCreateRate
        }
        if let (text, source) = value(command.definitionCheckRate, "definition-check-rate") {
            definitionCheckRate = try Self.number(text, source, in: 0...1_000_000) ?? definitionCheckRate
        }
        if let (text, source) = value(command.unusedSessionTtl, "unused-session-ttl") {
            unusedSessionTTL = try Self.duration(text, source)
        }
        if let (text, source) = value(command.maxDocument, "max-document") {
            maxDocument = try Self.number(text, source, in: 16_384...(64 << 20)) ?? maxDocument
        }
        if let (text, source) = value(command.maxField, "max-field") {
            maxField = try Self.number(text, source, in: 64...(1 << 20)) ?? maxField
        }
        if let (text, source) = value(command.maxHistory, "max-history") {
            maxHistory = try Self.size(text, source, at: 0...(1 << 30))
        }
        if let (text, source) = value(command.maxMemoryHistory, "max-memory-history") {
            maxMemoryHistory = try Self.size(text, source)
        }
        if let (text, source) = value(command.maxRenderings, "max-renderings") {
            maxRenderings = try Self.size(text, source, at: 0...(1 << 40))
        }
        try readStore(command, value)
    }

    /// The store flags: `--store`, `--data`, `--durability`, `--data-max-size`, `--history-retention`.
    private mutating func readStore(_ command: ServeCommand, _ value: (String?, String) -> (String, String)?) throws {
        var folder = "data"
        var durability = SQLiteSessionArchive.Durability.process
        var maxBytes: Int?
        var retention: Int?? = nil
        if let (text, _) = value(command.data, "data") {
            guard !text.isEmpty else { throw ValidationError("--data must name a folder") }
            folder = text
        }
        if let (text, source) = value(command.durability, "durability") {
            guard let choice = SQLiteSessionArchive.Durability(rawValue: text) else {
                throw ValidationError("\(source) must be process or machine")
            }
            durability = choice
        }
        if let (text, source) = value(command.dataMaxSize, "data-max-size") {
            maxBytes = try Self.size(text, source)
        }
        if let (text, source) = value(command.historyRetention, "history-retention") {
            retention = .some(text == "all" ? nil : try Self.number(text, source + " (or all)", in: 1...10_000_000))
        }
        let limits = StoreLimits(
            historyEntries: retention ?? StoreLimits.standard.historyEntries,
            historyBytes: maxHistory ?? StoreLimits.standard.historyBytes)
        let url = value(command.databaseUrl, "database-url")
        var connections: Int?
        if let (text, source) = value(command.databaseConnections, "database-connections") {
            connections = try Self.number(text, source, in: 1...1000)
        }
        var timeout: Duration = .seconds(5)
        if let (text, source) = value(command.databaseTimeout, "database-timeout") {
            timeout = try Self.duration(text, source)
        }
        if let (text, source) = value(command.reconcileInterval, "reconcile-interval") {
            reconcileInterval = try Self.duration(text, source)
        }
        switch (value(command.store, "store"), url) {
        case (nil, let (url, source)?), (("postgres", _)?, let (url, source)?):
            guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") || url.contains("=") else {
                throw ValidationError("\(source) must be a postgresql:// URL (or a libpq key=value string)")
            }
            store = .postgres(url: url, connections: connections, limits: limits, timeout: timeout)
        case (("postgres", let source)?, nil):
            throw ValidationError("\(source) postgres needs --database-url (or SWITCHYARD_DATABASE_URL)")
        case ((let choice, let source)?, (_, let urlSource)?):
            throw ValidationError("\(source) \(choice) cannot be used with \(urlSource): choose one store")
        case (nil, nil), (("sqlite", _)?, nil):
            store = .sqlite(folder: folder, durability: durability, maxBytes: maxBytes, limits: limits)
        case (("memory", _)?, nil):
            store = .memory(
                limits: StoreLimits(
                    historyEntries: retention ?? StoreLimits.inMemory.historyEntries,
                    historyBytes: maxHistory ?? StoreLimits.inMemory.historyBytes,
                    replies: StoreLimits.inMemory.replies, replyBytes: StoreLimits.inMemory.replyBytes),
                historyBudget: maxMemoryHistory)
        case ((_, let source)?, nil):
            throw ValidationError("\(source) must be sqlite, postgres or memory")
        }
    }

    /// `1048576`, `512K`, `64M`, `4G`: at least 1 MiB.
    static func size(_ text: String, _ source: String) throws -> Int {
        try size(text, source, at: (1 << 20)...(1 << 50))
    }

    /// `65536`, `64K`, `1M`, `4G`, within `range`.
    static func size(_ text: String, _ source: String, at range: ClosedRange<Int>) throws -> Int {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(text)
        var scale = 1
        if let last = text.uppercased().last, let unit = units[last] {
            digits = digits.dropLast()
            scale = unit
        }
        guard let value = Int(digits), value >= 0, value <= range.upperBound / scale, range.contains(value * scale)
        else {
            let least = range.lowerBound >= 1 << 20 ? "\(range.lowerBound >> 20)M" : "\(range.lowerBound)"
            let bound = range.lowerBound > 0 ? " (at least \(least))" : ""
            throw ValidationError("\(source) must be a size such as 512K, 64M or 4G\(bound)")
        }
        return value * scale
    }

    static func number(_ text: String, _ source: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = Int(text), range.contains(value) else {
            throw ValidationError("\(source) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// `90`, `90s`, `30m`, `2h`.
    static func duration(_ text: String, _ source: String) throws -> Duration {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600]
        var digits = Substring(text)
        var scale = 1
        if let last = text.last, let unit = units[last] {
            digits = digits.dropLast()
            scale = unit
        }
        guard let value = Int(digits), value > 0, value <= 7 * 24 * 3600 / scale else {
            throw ValidationError("\(source) must be a duration such as 90s, 30m or 2h (at most a week)")
        }
        return .seconds(value * scale)
    }

    /// Worker threads: as chosen, else one per core in memory, and 4 per core (at least 8) with a durable store. A
    /// change waits for its commit while holding its thread; more threads let more changes share a commit (with
    /// `--durability machine`, 2 threads reached 2.7k changes/s and 8 threads 4.5–5.1k on 2 cores).
    var threads: Int {
        if let chosenThreads { return chosenThreads }
        let cores = HTTPServerConfiguration.coreCount
        if case .memory = store { return cores }
        return max(8, 4 * cores)
    }

    var httpConfiguration: HTTPServerConfiguration {
        var configuration = HTTPServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.threads = threads
        configuration.maxBodyBytes = maxBody
        configuration.maxConnections = maxConnections
        configuration.maxConnectionsPerIP = maxConnectionsPerIP
        configuration.maxConnectionsPerNetwork = maxConnectionsPerNetwork
        configuration.maxStreams = maxStreams
        configuration.idleTimeout = idleTimeout
        configuration.requestTimeout = requestTimeout
        configuration.firstRequestTimeout = firstRequestTimeout
        configuration.redactPath = Self.redact
        return configuration
    }

    /// Session ids are capabilities: the access log shows only their first 6 characters.
    static let redact: @Sendable (String) -> String = { path in
        let redacted = HTTPServerConfiguration.redactSecrets(path)
        var parts = redacted.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for index in parts.indices where index > 0 && (parts[index - 1] == "sessions" || parts[index - 1] == "s") {
            if parts[index].count > 8 { parts[index] = String(parts[index].prefix(6)) + "…" }
        }
        return parts.joined(separator: "/")
    }

    var displayHost: String { host == "0.0.0.0" ? "127.0.0.1" : host }

    func makeLogger() -> Logger {
        let level = logLevel
        let json = logFormat == "json"
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler =
                json ? JSONLogHandler(label: label) : StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "switchyard")
    }

    func metadata(port: UInt16) -> Logger.Metadata {
        [
            "host": "\(host)", "port": "\(port)", "public": "\(publicFolder)", "threads": "\(threads)",
            "maxSessions": "\(maxSessions)", "sessionTTL": "\(sessionTTL)", "maxBody": "\(maxBody)",
            "logLevel": "\(logLevel)", "logFormat": "\(logFormat)", "corsOrigin": "\(corsOrigin ?? "none")",
            "admin": "\(adminToken == nil ? "off" : "on")",
            "maxConnections": "\(maxConnections)", "maxConnectionsPerIP": "\(maxConnectionsPerIP)",
            "maxConnectionsPerNetwork": "\(maxConnectionsPerNetwork)",
            "maxStreams": "\(maxStreams)", "idleTimeout": "\(idleTimeout)", "requestTimeout": "\(requestTimeout)",
            "firstRequestTimeout": "\(firstRequestTimeout)",
            "sessionCreateRate": "\(sessionCreateRate)", "definitionCheckRate": "\(definitionCheckRate)",
            "unusedSessionTTL": "\(unusedSessionTTL)",
            "maxDocument": "\(maxDocument)", "maxField": "\(maxField)",
            "maxHistory": "\(maxHistory.map(String.init) ?? "default")", "maxMemoryHistory": "\(maxMemoryHistory)",
            "maxRenderings": "\(maxRenderings)",
            "store": "\(storeDescription)",
        ]
    }
}
