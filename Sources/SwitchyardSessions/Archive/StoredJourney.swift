/// A stored session as analytics reads it (``SessionArchive/journeys(of:entries:requests:)``): which app
/// version it was created on, when, and its history entries, without their restore documents.
public struct StoredJourney: Sendable {
    /// The session id (used to join the session's refusals on this node; never part of an analytics answer).
    public var id: String
    /// The name of its app.
    public var app: String
    /// The version the session is stored at now.
    public var version: Int
    /// The restore document of its version 0, which names the app version it was created on (its rollout
    /// variant); empty when the store does not have it.
    public var initialState: [UInt8]
    /// When it was created (seconds since 1970); nil when the store does not say.
    public var created: Double?
    /// When a request last used it (seconds since 1970).
    public var lastAccess: Double
    /// Its kept history entries, oldest first. Retention may have trimmed the oldest.
    public var entries: [Entry]

    /// A journey.
    public init(
        id: String, app: String, version: Int, initialState: [UInt8], created: Double?, lastAccess: Double,
        entries: [Entry]
    ) {
        self.id = id
        self.app = app
        self.version = version
        self.initialState = initialState
        self.created = created
        self.lastAccess = lastAccess
        self.entries = entries
    }
}

extension SessionArchive {
    /// Reads the journeys with ``session(_:)``, ``state(of:at:)`` and ``history(of:after:limit:)``: three reads per
    /// session, and no creation time. Stores read a page in fewer.
    public func journeys(
        of ids: [String], entries: Int, requests: StoredJourney.Requests
    ) throws(ArchiveError) -> [StoredJourney] {
        var found: [StoredJourney] = []
        for id in ids {
            guard let stored = try session(id) else { continue }  // ended meanwhile
            found.append(
                StoredJourney(
                    id: id, app: stored.app, version: stored.version, initialState: try state(of: id, at: 0) ?? [],
                    created: nil, lastAccess: stored.lastAccess,
                    entries: try history(of: id, after: -1, limit: entries).map {
                        StoredJourney.Entry($0, request: requests.includes($0.source))
                    }))
        }
        return found
    }
}
