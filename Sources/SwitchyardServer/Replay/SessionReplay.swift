import SwitchyardJSON

/// How one stored session replayed on the candidate.
public struct SessionReplay: Sendable {
    /// The session's id.
    public var session: String
    /// The app and version its first replayed state was written by (`shop@1`), when it could be read.
    public var recordedApp: String?
    /// The app and version the candidate ran it on (`shop@2`), once it took the session.
    public var candidateApp: String?
    /// How many recorded requests were re-run (up to and including the one that diverged).
    public var requests = 0
    /// Where it first diverged; nil when every re-run request came to what was recorded.
    public var firstDivergence: ReplayDivergence?
    /// Why the replay of this session stopped before the end of its history without a divergence (the request
    /// bound, a request the history did not keep, a migration past the candidate's version); nil when it went to
    /// the end.
    public var cut: String?

    /// A session not replayed yet.
    public init(session: String) {
        self.session = session
    }

    /// Whether it diverged.
    public var diverged: Bool { firstDivergence != nil }

    /// `{"session", "diverged", "requests", "recordedApp"?, "candidateApp"?, "firstDivergence"?, "cut"?}`.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "session": .string(session), "diverged": .bool(diverged), "requests": .number(Double(requests)),
        ]
        if let recordedApp { members["recordedApp"] = .string(recordedApp) }
        if let candidateApp { members["candidateApp"] = .string(candidateApp) }
        if let firstDivergence { members["firstDivergence"] = firstDivergence.json }
        if let cut { members["cut"] = .string(cut) }
        return .object(members)
    }
}
