import Switchyard
import SwitchyardExplorer
import SwitchyardSessions

/// How the API behaves: the sessions it serves (``SessionConfiguration``: apps, store, per-session limits) and the
/// limits of its HTTP edge.
///
/// The session settings read and write as if they were the configuration's own (`configuration.maxSessions = 10`).
@dynamicMemberLookup
public struct ServerConfiguration: Sendable {
    /// The sessions: apps, store and their limits.
    public var sessions: SessionConfiguration
    /// How many entries `GET …/history` lists when the request gives no `limit`.
    public var historyLimit: Int = 200
    /// The longest string (member name or value) in a request body, in UTF-8 bytes; a longer one is 422
    /// `fieldTooLong`.
    public var maxFieldBytes: Int = 4096
    /// Sessions one client address (an IPv6 address's /64 prefix) may create per minute, with bursts of as many;
    /// over it `POST /api/sessions` answers 429 with `Retry-After`. 0: no limit.
    public var sessionCreationsPerMinute: Int = 60
    /// Definition checks (`POST /api/definitions/check`, which needs no token) one client address may ask for per
    /// minute, with bursts of as many (its network, 16 times as many); over it 429 with `Retry-After`. 0: no limit.
    public var definitionChecksPerMinute: Int = 30
    /// Definition checks that may run at once, whoever asks: the rest are answered 503 `checkBusy` at once, so that
    /// checks never hold the threads that serve sessions.
    public var concurrentDefinitionChecks: Int = 2
    /// The largest definition `POST /api/definitions/check` reads (a served file may be up to 8 MiB): 413 over it.
    public var maxDefinitionCheckBytes: Int = 512 * 1024
    /// An origin allowed to call the API from a browser (`Access-Control-Allow-Origin`); nil sends no CORS headers.
    public var corsOrigin: String?
    /// The secret the admin endpoints (`/api/admin/…`) require as `Authorization: Bearer <token>`, at least 16
    /// characters; nil (the default): they are off and answer 404.
    public var adminToken: String?
    /// How far `GET /api/admin/coverage` explores each app version's graph (once; kept until the apps are reloaded):
    /// by default 20,000 states, 40 actions deep, 30 s.
    public var coverageExploration = ExplorationLimits(seconds: 30)
    /// With an archive shared by several nodes: how often this node looks whether another published, split or
    /// retired an app version through the admin API (one cheap read of the store); it serves the change from then on.
    public var registryPollInterval: Duration = .seconds(1)

    /// A configuration hosting `apps`, keeping sessions in memory.
    public init(apps: [NavigationApp]) {
        sessions = SessionConfiguration(apps: apps)
    }

    /// A session setting, as if it were the configuration's own.
    public subscript<Value>(dynamicMember path: WritableKeyPath<SessionConfiguration, Value>) -> Value {
        get { sessions[keyPath: path] }
        set { sessions[keyPath: path] = newValue }
    }
}
