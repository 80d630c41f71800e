import Logging

/// The logs: their level and format, and the settings a start logs.
extension Settings {
    /// Bootstraps the logging system at the chosen level and format (standard error), and returns the server's logger.
    func makeLogger() -> Logger {
        let level = logLevel
        let json = logFormat == .json
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler =
                json ? JSONLogHandler(label: label) : StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "switchyard")
    }

    /// The settings as the start's log line shows them (never the admin token, nor a database password).
    func metadata(port: UInt16) -> Logger.Metadata {
        [
            "host": "\(host)", "port": "\(port)", "public": "\(publicFolder)", "threads": "\(threads)",
            "maxSessions": "\(maxSessions)", "sessionTTL": "\(sessionTTL)", "maxBody": "\(maxBody)",
            "logLevel": "\(logLevel)", "logFormat": "\(logFormat.rawValue)", "corsOrigin": "\(corsOrigin ?? "none")",
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
