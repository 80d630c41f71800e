import MicroHTTP
import Switchyard
import SwitchyardServer

/// What the settings configure: the HTTP transport and the API.
extension Settings {
    /// Worker threads: as chosen, else one per core in memory, and 4 per core (at least 8) with a durable store. A
    /// change waits for its commit while holding its thread; more threads let more changes share a commit (with
    /// `--durability machine`, 2 threads reached 2.7k changes/s and 8 threads 4.5–5.1k on 2 cores).
    var threads: Int {
        if let chosenThreads { return chosenThreads }
        let cores = HTTPServerConfiguration.coreCount
        if case .memory = store { return cores }
        return max(8, 4 * cores)
    }

    /// The transport's configuration: address, threads, limits and timeouts.
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

    /// The API's configuration for `apps`, without its store (which the caller opens).
    func serverConfiguration(apps: [NavigationApp]) -> ServerConfiguration {
        var configuration = ServerConfiguration(apps: apps)
        configuration.maxSessions = maxSessions
        configuration.sessionTTL = sessionTTL
        configuration.corsOrigin = corsOrigin
        configuration.adminToken = adminToken
        configuration.sessionCreationsPerMinute = sessionCreateRate
        configuration.definitionChecksPerMinute = definitionCheckRate
        configuration.unusedSessionTTL = unusedSessionTTL
        configuration.maxDocumentBytes = maxDocument
        configuration.maxRenderingBytes = maxRenderings
        configuration.maxFieldBytes = maxField
        configuration.reconcileInterval = reconcileInterval
        configuration.rollouts = rollouts
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

    /// The host to show in a link: a wildcard address is reached at 127.0.0.1.
    var displayHost: String { host == "0.0.0.0" ? "127.0.0.1" : host }
}
