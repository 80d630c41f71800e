import Switchyard

/// How sessions behave: which apps they run, where they are stored, and the limits that keep each one bounded.
///
/// Nothing here knows of a transport; the server's `ServerConfiguration` holds one of these.
public struct SessionConfiguration: Sendable {
    /// The apps sessions can run, every version of each; the first app's name is the default.
    public var apps: [NavigationApp]
    /// Which versions of an app new sessions get and which keep their sessions (``AppRollout``); an app without one
    /// gives its latest version to new sessions and migrates the sessions of its other versions when it can.
    public var rollouts: [AppRollout] = []
    /// Where sessions are kept: every change is stored before it is answered or streamed, and a session not in
    /// memory (after a restart, or taken out to make room) is read back from it on first use. Nil (the default):
    /// each ``LiveSessions`` made from this configuration keeps its sessions in a ``MemorySessionArchive`` of its
    /// own (``StoreLimits/inMemory``), which ends with the process; two servers made from one configuration never
    /// share it.
    public var archive: (any SessionArchive)?
    /// Live sessions at most; creating one more is refused (``CreateFailure/full(limit:retryAfter:)``) unless a
    /// durable archive lets the least recently used leave memory.
    public var maxSessions: Int = 100_000
    /// Idle time after which a session expires.
    public var sessionTTL: Duration = .seconds(30 * 60)
    /// A session that no request named after its creation expires after this (one with an open stream never
    /// does), so that sessions created and abandoned in bulk leave soon.
    public var unusedSessionTTL: Duration = .seconds(2 * 60)
    /// Idempotency keys remembered per session: the latest this many keyed requests' keys (and no older than
    /// ``idempotencyRetention``). A retry under a remembered key is answered as the first time and never applied
    /// again; a key past them is a new request.
    public var idempotencyLimit: Int = 1024
    /// How long an idempotency key is remembered.
    public var idempotencyRetention: Duration = .seconds(24 * 3600)
    /// Bytes of answers kept whole for idempotency replay per session. Past this the oldest answers to requests
    /// that committed are kept as their version and `result` or redirect (a retry is answered as the first time,
    /// rebuilt from that version's restore document), and refusals (which applied nothing) are forgotten; no key
    /// of a request that committed is forgotten for its answer's size.
    public var maxIdempotencyBytes: Int = 512 * 1024
    /// A request larger than this is kept in the history as `{"omitted":…,"bytes":n}`.
    public var maxHistoryRequestBytes: Int = 4096
    /// The largest state document a session may grow to; a change that would pass it is refused
    /// (``ChangeRefusal/documentTooLarge(bytes:limit:)``) and nothing is applied.
    public var maxDocumentBytes: Int = 256 * 1024
    /// The most bytes the sessions' kept screen renderings take together (``ScreenRenderings``): a change writes
    /// again only the screens it changed, in the sessions whose documents were written most recently. 0 keeps none:
    /// every document renders every screen.
    public var maxRenderingBytes: Int = 8 << 20
    /// The most bytes of state documents a reconnecting stream is replayed; one that missed more gets the current
    /// state instead, as a subscriber that falls behind does. Keep it well under the transport's stream backlog.
    public var maxReplayBytes: Int = 1 << 20
    /// With an archive shared by several nodes (``SharedSessionArchive``): how often the sessions this node streams
    /// are compared with the store, so that a change notice lost in a disconnection leaves no stream behind.
    public var reconcileInterval: Duration = .seconds(1)
    /// The clock, in seconds since 1970; injected by tests to expire sessions without waiting.
    public var now: @Sendable () -> Double = SessionConfiguration.systemNow

    /// Sessions of `apps`, kept in memory.
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
