import Switchyard

/// A bounded read of the stored sessions for an analysis: the journeys of the apps asked about, page by page
/// (``SessionArchive/journeys(ofApp:after:limit:entries:)``), each handed to the analysis and let go. It stops after
/// ``maxSessions`` sessions or ``timeLimit`` seconds, and its notes say so.
public struct AnalyticsScan: Sendable {
    /// Sessions read per page.
    public static let pageSize = 500
    /// The most sessions read; those after them (in id order) are left out.
    public var maxSessions: Int
    /// The most seconds spent reading.
    public var timeLimit: Double
    /// The most history entries read per session (its oldest).
    public var maxEntries: Int
    /// Whether journeys are read with what each change asked (``Journey/Step/action``), as coverage needs.
    public var readsActions = false

    /// A scan of at most `maxSessions` sessions (100,000 by default), `timeLimit` seconds (10), `maxEntries`
    /// entries per session (2,000).
    public init(maxSessions: Int = 100_000, timeLimit: Double = 10, maxEntries: Int = 2000) {
        self.maxSessions = max(1, maxSessions)
        self.timeLimit = timeLimit
        self.maxEntries = max(1, maxEntries)
    }

    /// What a scan read.
    public struct Outcome: Sendable {
        /// Sessions read from the store.
        public var read = 0
        /// Those the filter admitted (handed on).
        public var counted = 0
        /// How the reading went, for the answer's notes.
        public var notes: [String] = []
    }

    /// Reads the sessions of `apps` from `archive`, hands each journey `filter` admits to `visit`; `start` gives the
    /// visible path a served app version's sessions are created on, `refusals` the refusals this node holds of a
    /// session (by id).
    public func run(
        _ archive: any SessionArchive, apps: [String], filter: AnalyticsFilter,
        start: (AppVersion) -> [String]?, refusals: (String) -> [(version: Int, code: String)] = { _ in [] },
        visit: (Journey) -> Void
    ) throws(ArchiveError) -> Outcome {
        var outcome = Outcome()
        let clock = ContinuousClock()
        let began = clock.now
        var trimmed = 0
        var cut = 0
        var untimed = 0
        var unknownStart = 0
        var stopped: String?
        var versions = VersionCache()
        reading: for (position, app) in apps.enumerated() {
            var after: String?
            while true {
                let room = maxSessions - outcome.read
                let late = clock.now - began >= .seconds(timeLimit)
                if room <= 0 || late {
                    // Said only when sessions were left unread.
                    guard try Self.remains(in: archive, apps: apps[position...], after: after) else { break reading }
                    stopped =
                        late
                        ? "the scan stopped after \(timeLimit) s with \(outcome.read) sessions read; the rest are not "
                            + "counted"
                        : "only the first \(maxSessions) sessions were read (the scan's bound); the rest are not counted"
                    break reading
                }
                let page = try archive.journeys(
                    ofApp: app, after: after, limit: min(Self.pageSize, room), entries: maxEntries)
                for stored in page {
                    outcome.read += 1
                    let app = versions.appVersion(of: stored)
                    var journey = Journey(stored, app: app, start: app.flatMap(start), actions: readsActions)
                    guard filter.admits(journey) else { continue }
                    journey.refusals = refusals(stored.id)
                    outcome.counted += 1
                    if journey.isTrimmed { trimmed += 1 }
                    if journey.isCut { cut += 1 }
                    if !journey.isTrimmed, journey.steps.first?.version != 0 { unknownStart += 1 }
                    if journey.steps.first?.version == 0, journey.steps.first?.time == nil { untimed += 1 }
                    visit(journey)
                }
                guard page.count == min(Self.pageSize, room), let last = page.last else { break }
                after = last.id
            }
        }
        if trimmed > 0 {
            outcome.notes.append(
                "\(trimmed) sessions' histories were trimmed by retention: counted from their oldest kept entry")
        }
        if cut > 0 {
            outcome.notes.append("\(cut) sessions have more than \(maxEntries) history entries: read as far as that")
        }
        if unknownStart > 0 {
            outcome.notes.append(
                "\(unknownStart) sessions are of app versions not served: their first screen is not known")
        }
        if untimed > 0 {
            outcome.notes.append(
                "\(untimed) sessions' creation time is not kept by this store: times from their first screen are left out"
            )
        }
        if let stopped { outcome.notes.append(stopped) }
        return outcome
    }

    /// Whether a session is stored after `after` in the first of `apps`, or in any of the others.
    private static func remains(
        in archive: any SessionArchive, apps: ArraySlice<String>, after: String?
    ) throws(ArchiveError) -> Bool {
        for (offset, app) in apps.enumerated() {
            if try !archive.sessionIDs(ofApp: app, after: offset == 0 ? after : nil, limit: 1).isEmpty { return true }
        }
        return false
    }
}

/// The app versions of the version-0 documents met so far, by their `app` member (``TopLevelMember``, found without
/// parsing the document): sessions of one app version name it alike, and a document is parsed only for an `app`
/// member not met yet (or when it has none).
private struct VersionCache {
    private var known: [ArraySlice<UInt8>: AppVersion?] = [:]

    mutating func appVersion(of stored: StoredJourney) -> AppVersion? {
        guard let member = TopLevelMember.app(in: stored.initialState) else { return Journey.appVersion(of: stored) }
        if let found = known[member] { return found }
        let version = Journey.appVersion(of: stored)
        if known.count < 256 { known[member] = version }
        return version
    }
}
