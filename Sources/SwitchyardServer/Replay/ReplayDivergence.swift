import SwitchyardJSON

/// Where a replayed session first parted from its recording: the request, what was recorded, what the candidate
/// did, and why, in one line.
public struct ReplayDivergence: Sendable {
    /// The request's index among the session's re-run requests (0 for the first); nil when the session diverged
    /// before any request (the candidate could not take it, or its history could not be read).
    public var index: Int?
    /// The version the request made in the recording; nil as for `index`.
    public var version: Int?
    /// The request body as recorded (before any renaming a migration made to it); nil as for `index`.
    public var request: [UInt8]?
    /// What the recording says the request came to, its path as the recording names routes (it is compared with
    /// the candidate's through the migration chain's renames); nil as for `index`.
    public var recorded: ReplayOutcome?
    /// What the candidate answered; nil when nothing was sent.
    public var candidate: ReplayOutcome?
    /// Why, in one line, the same for every session that diverged alike (it names routes and problem codes, never
    /// a session's ids or versions): sessions are grouped by it.
    public var reason: String
    /// The candidate's problem `detail`, when it refused: specific to the session, so not part of the reason.
    public var detail: String?

    /// A divergence.
    public init(
        index: Int? = nil, version: Int? = nil, request: [UInt8]? = nil, recorded: ReplayOutcome? = nil,
        candidate: ReplayOutcome? = nil, reason: String, detail: String? = nil
    ) {
        self.index = index
        self.version = version
        self.request = request
        self.recorded = recorded
        self.candidate = candidate
        self.reason = reason
        self.detail = detail
    }

    /// `{"index", "version", "request", "recorded", "candidate", "reason", "detail"?}` (members that are nil are
    /// absent; a request that is not JSON is given as a string).
    public var json: JSONValue {
        var members: [String: JSONValue] = ["reason": .string(reason)]
        if let index { members["index"] = .number(Double(index)) }
        if let version { members["version"] = .number(Double(version)) }
        if let request {
            members["request"] = (try? JSONValue(parsing: request)) ?? .string(String(decoding: request, as: UTF8.self))
        }
        if let recorded { members["recorded"] = recorded.json }
        if let candidate { members["candidate"] = candidate.json }
        if let detail { members["detail"] = .string(detail) }
        return .object(members)
    }
}
