#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Settings of an ``HTTPServer``; every property has a production default.
public struct HTTPServerConfiguration: Sendable {
    /// The address to listen on (IPv4 or IPv6 literal). Default `"127.0.0.1"`.
    public var host: String = "127.0.0.1"
    /// The TCP port; 0 picks any free port (read it back from ``HTTPServer/port``). Default 8080.
    public var port: UInt16 = 8080
    /// Worker threads polling with epoll and running handlers. Default: the number of cores.
    public var threads: Int = HTTPServerConfiguration.coreCount
    /// The largest request body accepted, in bytes; larger bodies get 413. Default 1 MiB.
    public var maxBodyBytes: Int = 1 << 20
    /// The longest request target (path and query) accepted, in bytes; longer gets 414. Default 8 KiB.
    public var maxURLBytes: Int = 8192
    /// The most connections open at once. Default 10,000.
    ///
    /// libmicrohttpd stops accepting at this cap, so from 90 % of it on (at most one below it) each new
    /// connection closes the connection idle the longest: one with no request in progress and no event stream
    /// (a keep-alive connection between requests, or one still sending its first header). Connections answering
    /// a request and event streams are never evicted. Many clients each holding idle connections therefore cannot
    /// keep a new client out; with ``firstRequestTimeout`` a connection that never sends a request is closed soon
    /// anyway. (Chosen over refusing at a lower threshold, which would still let idle connections lock new ones out,
    /// and over closing idle connections sooner for everyone, which costs well-behaved keep-alive clients.)
    public var maxConnections: Int = 10_000
    /// The most connections open at once from one IP address. Default 256: enough for about a hundred
    /// browser tabs behind one NAT address, each holding an event stream and a keep-alive connection.
    public var maxConnectionsPerIP: Int = 256
    /// The most connections open at once from one network (an IPv4 /24, an IPv6 /48), whatever its addresses;
    /// past it a new connection from that network is refused at once (its other connections go on). Default 1,024:
    /// many addresses of one network trickling request bodies cannot hold more than a tenth of ``maxConnections``,
    /// however slowly they send.
    public var maxConnectionsPerNetwork: Int = 1024
    /// A connection with no traffic for this long is closed (whole seconds, rounded up). Default 10 s.
    public var idleTimeout: Duration = .seconds(10)
    /// The time a client has to send a whole request (header and body), counted from the moment the
    /// connection opened or its previous response ended; then the connection is closed. Unlike
    /// ``idleTimeout`` this also ends a client that trickles a byte now and then. `.zero` turns it
    /// off. Checked about once a second. Default 30 s.
    public var requestTimeout: Duration = .seconds(30)
    /// The time a new connection has to send the whole header of its first request; then it is closed. A client
    /// that connects and sends nothing (or trickles a header) holds a connection slot only this long, instead of
    /// ``idleTimeout`` or ``requestTimeout``. `.zero` turns it off. Checked about four times per timeout, at
    /// least once a second. Default 5 s.
    public var firstRequestTimeout: Duration = .seconds(5)
    /// After a 413 for a body over ``maxBodyBytes`` (answered at once, with no `100 Continue`), up to this
    /// many bytes that the client still sends are read and dropped for at most 2 s, so that a client sending
    /// its body without waiting reads the 413 instead of a connection reset; then the socket is closed.
    /// Default 4 MiB.
    public var maxDrainedBodyBytes: Int = 4 << 20
    /// Bytes an event stream may queue for a client that does not read; past this the stream ends
    /// and its connection is closed. Default 4 MiB.
    public var maxStreamBacklogBytes: Int = 4 << 20
    /// The most Server-Sent Events streams open at once; over it a stream request gets 503. Default 4096.
    public var maxStreams: Int = 4096
    /// How often open event streams get a `: ping` comment to keep them alive. Default 15 s.
    public var heartbeatInterval: Duration = .seconds(15)
    /// How long ``HTTPServer/stop()`` waits for in-flight requests to finish. Default 5 s.
    public var shutdownGrace: Duration = .seconds(5)
    /// How long ``HTTPServer/stop()`` then waits for libmicrohttpd's threads to end; past this it
    /// gives up on them (a handler that never returns) and returns false. Default 5 s.
    public var shutdownForceAfter: Duration = .seconds(5)
    /// Rewrites a request target (path and query) before it is written to the access log.
    ///
    /// Default: ``HTTPServerConfiguration/redactSecrets(_:)``.
    public var redactPath: @Sendable (String) -> String = HTTPServerConfiguration.redactSecrets

    /// Creates a configuration with all defaults.
    public init() {}

    /// What a query parameter's name holds when the default redaction hides its value (compared case-insensitively,
    /// anywhere in the name: `token`, `access_token`, `admin_token`, `apiKey`, `client_secret`, `password`, …).
    public static let secretParameterNames: Set<String> = [
        "token", "key", "secret", "password", "passwd", "session", "auth", "credential", "signature",
    ]

    /// Whether a query parameter of this name may hold a credential (its name contains one of
    /// ``secretParameterNames``).
    public static func isSecretParameter(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return secretParameterNames.contains { lowered.contains($0) }
    }

    /// The default redaction: values of the query parameters whose names ``isSecretParameter(_:)``
    /// become `REDACTED`, e.g. `/a?access_token=abc&x=1` → `/a?access_token=REDACTED&x=1`.
    public static func redactSecrets(_ target: String) -> String {
        guard let mark = target.firstIndex(of: "?") else { return target }
        let query = target[target.index(after: mark)...]
        var changed = false
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> Substring in
            guard let equals = pair.firstIndex(of: "=") else { return pair }
            let name = URLComponentsParser.percentDecode(String(pair[..<equals]), plusIsSpace: true)
            guard isSecretParameter(name) else { return pair }
            changed = true
            return pair[...equals] + "REDACTED"
        }
        guard changed else { return target }
        return target[...mark] + pairs.joined(separator: "&")
    }

    /// The number of online processor cores (at least 1).
    public static var coreCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// `idleTimeout` in whole seconds for libmicrohttpd (0 = never).
    var idleTimeoutSeconds: UInt32 {
        let components = idleTimeout.components
        guard components.seconds >= 0, idleTimeout > .zero else { return 0 }
        let whole = components.seconds + (components.attoseconds > 0 ? 1 : 0)
        return UInt32(clamping: whole)
    }
}
