import Switchyard

/// How the API behaves: which apps it hosts, and the limits that keep it healthy.
public struct ServerConfiguration: Sendable {
    /// The apps sessions can run; the first is the default.
    public var apps: [NavigationApp]
    /// Live sessions at most; creating one more answers 503 with `Retry-After`.
    public var maxSessions: Int = 100_000
    /// Idle time after which a session expires.
    public var sessionTTL: Duration = .seconds(30 * 60)
    /// History entries kept per session in memory (oldest dropped first); also how many `GET …/history` lists by
    /// default.
    public var historyLimit: Int = 200
    /// Idempotency keys remembered per session.
    public var idempotencyLimit: Int = 256
    /// Bytes of responses remembered for idempotency replay per session; past this the oldest keys are forgotten
    /// (a retry of a forgotten key applies again, as after any key's lifetime).
    public var maxIdempotencyBytes: Int = 512 * 1024
    /// Bytes the history keeps per session in memory (request bodies and visible paths); past this the oldest
    /// entries go. Without an ``archive`` only: with one, the archive keeps the history.
    public var maxHistoryBytes: Int = 64 * 1024
    /// A request body larger than this is kept in the history as `{"omitted":…,"bytes":n}`.
    public var maxHistoryRequestBytes: Int = 4096
    /// The longest string (member name or value) in a request body, in UTF-8 bytes; a longer one is 422
    /// `fieldTooLong`.
    public var maxFieldBytes: Int = 4096
    /// The largest state document a session may grow to; a change that would pass it is refused with 409
    /// `documentTooLarge` and nothing is applied.
    public var maxDocumentBytes: Int = 256 * 1024
    /// The most bytes of state documents a reconnecting stream (`Last-Event-ID`) is replayed; one that missed more
    /// gets the current state instead, as a subscriber that falls behind does. Keep it well under the transport's
    /// stream backlog (4 MiB by default), which a replay must not fill.
    public var maxReplayBytes: Int = 1 << 20
    /// Sessions one client address (an IPv6 address's /64 prefix) may create per minute, with bursts of as many;
    /// over it `POST /api/sessions` answers 429 with `Retry-After`. 0: no limit.
    public var sessionCreationsPerMinute: Int = 60
    /// A session that no request named after its creation expires after this (one with an open stream never
    /// does), so that sessions created and abandoned in bulk leave soon.
    public var unusedSessionTTL: Duration = .seconds(2 * 60)
    /// An origin allowed to call the API from a browser (`Access-Control-Allow-Origin`); nil sends no CORS headers.
    public var corsOrigin: String?
    /// Where sessions are stored durably; nil keeps them in memory only (they end with the process). With an
    /// archive, every change is stored before it is answered or streamed, and a session not in memory (after a
    /// restart) is read back from it on first use.
    public var archive: (any SessionArchive)?
    /// With an archive shared by several nodes (``SharedSessionArchive``): how often the sessions this node streams
    /// are compared with the store, so that a change notice lost in a disconnection leaves no stream behind.
    public var reconcileInterval: Duration = .seconds(1)
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
