import Switchyard

/// How the API behaves: which apps it hosts, and the limits that keep it healthy.
public struct ServerConfiguration: Sendable {
    /// The apps sessions can run; the first is the default.
    public var apps: [NavigationApp]
    /// Live sessions at most; creating one more answers 503 with `Retry-After`.
    public var maxSessions: Int = 100_000
    /// Idle time after which a session expires.
    public var sessionTTL: Duration = .seconds(30 * 60)
    /// History entries kept per session (oldest dropped first).
    public var historyLimit: Int = 200
    /// Idempotency keys remembered per session.
    public var idempotencyLimit: Int = 256
    /// An origin allowed to call the API from a browser (`Access-Control-Allow-Origin`); nil sends no CORS headers.
    public var corsOrigin: String?
    /// The clock, in seconds; injected by tests to expire sessions without waiting.
    public var now: @Sendable () -> Double = ServerConfiguration.systemNow

    /// A configuration hosting `apps`.
    public init(apps: [NavigationApp]) {
        self.apps = apps
    }

    /// Seconds since 1970 from the system clock.
    public static let systemNow: @Sendable () -> Double = {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
