import Switchyard

/// Which stored sessions an analysis counts: of an app, of one of its versions (a rollout's variant is the app
/// version a session was created on), and created within a time window.
public struct AnalyticsFilter: Sendable, Equatable {
    /// The app's name; nil: every served app.
    public var app: String?
    /// The app version sessions were created on; nil: any.
    public var version: Int?
    /// Sessions that started at or after this time (seconds since 1970); nil: no bound.
    public var since: Double?
    /// Sessions that started before this time; nil: no bound.
    public var until: Double?

    /// A filter; without arguments, every session.
    public init(app: String? = nil, version: Int? = nil, since: Double? = nil, until: Double? = nil) {
        self.app = app
        self.version = version
        self.since = since
        self.until = until
    }

    /// Whether `journey` is counted. A journey whose start time is unknown is counted only without a time window.
    public func admits(_ journey: Journey) -> Bool {
        if let version, journey.app?.version != version { return false }
        if let app, let named = journey.app?.name, named != app { return false }
        guard since != nil || until != nil else { return true }
        guard let start = journey.start else { return false }
        return start >= (since ?? -.infinity) && start < (until ?? .infinity)
    }
}
