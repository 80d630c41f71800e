import Dispatch
import Switchyard
import Synchronization

/// A bounded read of the stored sessions for an analysis: the journeys of the apps asked about, page by page
/// (``SessionArchive/sessionIDs(ofApp:after:limit:)`` then ``SessionArchive/journeys(of:entries:requests:)``), each handed to
/// the analysis and let go. Two pages are read at once (``pagesAtOnce``), on two threads: the store's reads are most
/// of the time (a SQLite store reads them on its two connections). The analysis sees the sessions one at a time, in
/// id order. It stops after ``maxSessions`` sessions or ``timeLimit`` seconds, and its notes say so.
public struct AnalyticsScan: Sendable {
    /// Sessions read per page.
    public static let pageSize = 500
    /// The most sessions read; those after them (in id order) are left out.
    public var maxSessions: Int
    /// The most seconds spent reading.
    public var timeLimit: Double
    /// The most history entries read per session (its oldest).
    public var maxEntries: Int
    /// Pages read at once, each on a thread of its own (1: one after the other, on the caller's thread).
    public var pagesAtOnce = 2
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
                let (pages, last) = try pages(of: app, in: archive, after: after, room: room)
                let requests: StoredJourney.Requests = readsActions ? .all : .events
                for page in try Self.read(pages, from: archive, entries: maxEntries, requests: requests) {
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
                }
                guard let last else { break }
                after = last
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

    /// The ids of up to ``pagesAtOnce`` pages of `app`'s sessions after `after`, `room` ids at most, and the last
    /// id when the app may have more after them (nil: these are its last).
    private func pages(
        of app: String, in archive: any SessionArchive, after: String?, room: Int
    ) throws(ArchiveError) -> (pages: [[String]], last: String?) {
        var pages: [[String]] = []
        var cursor = after
        var left = room
        while pages.count < max(1, pagesAtOnce), left > 0 {
            let limit = min(Self.pageSize, left)
            let ids = try archive.sessionIDs(ofApp: app, after: cursor, limit: limit)
            if !ids.isEmpty { pages.append(ids) }
            guard ids.count == limit, let last = ids.last else { return (pages, nil) }
            cursor = last
            left -= ids.count
        }
        return (pages, cursor)
    }

    /// The journeys of `pages`, each page read on a thread of its own (one page: on this thread).
    private static func read(
        _ pages: [[String]], from archive: any SessionArchive, entries: Int, requests: StoredJourney.Requests
    ) throws(ArchiveError) -> [[StoredJourney]] {
        guard pages.count > 1 else {
            return try pages.map { page throws(ArchiveError) in
                try archive.journeys(of: page, entries: entries, requests: requests)
            }
        }
        let results = Mutex<[Result<[StoredJourney], ArchiveError>?]>(Array(repeating: nil, count: pages.count))
        DispatchQueue.concurrentPerform(iterations: pages.count) { index in
            let result = Result { () throws(ArchiveError) in
                try archive.journeys(of: pages[index], entries: entries, requests: requests)
            }
            results.withLock { $0[index] = result }
        }
        return try results.withLock { $0 }.map { result throws(ArchiveError) in
            guard let result else { return [] }
            return try result.get()
        }
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
