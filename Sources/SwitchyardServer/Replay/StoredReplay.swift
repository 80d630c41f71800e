import Switchyard
import SwitchyardSessions

/// Re-runs stored sessions' recorded requests on a candidate (app versions and rollouts, as `serve` would run them)
/// in this process, and reports where each first diverged from its recording: what `switchyard replay` runs before
/// a release.
///
/// Each session starts from its first kept state (version 0, the session as created, unless its history was
/// trimmed: then the oldest version it keeps) and is read back by the candidate as a store's session is, through
/// the migration chain when the candidate is a later version. Its requests are then sent in order, each to the
/// endpoint its history source names, translated through the chain as the document was (``RouteTranslation``),
/// with the versions they name (`expectedVersion`, a restore's `version`) mapped to the candidate's. After each,
/// the outcome (committed, redirected, refused with which code) and the visible path are compared with the
/// recording; the first difference ends the session's replay. The source archive is only read.
public struct StoredReplay: Sendable {
    private let source: any SessionArchive
    private let configuration: ServerConfiguration
    private let options: ReplayOptions

    /// A replay of `source`'s sessions on the apps and rollouts of `candidate` (its store is not used: the
    /// candidate keeps its copies in memory), as `options` select and bound them.
    public init(source: any SessionArchive, candidate: ServerConfiguration, options: ReplayOptions = ReplayOptions()) {
        self.source = source
        self.configuration = candidate
        self.options = options
    }

    /// Replays the sessions and reports.
    public func run() -> ReplayReport {
        let clock = ContinuousClock()
        let started = clock.now
        var report = ReplayReport(resultsKept: options.resultsKept)
        let candidate = ReplayCandidate(configuration: configuration, maxRequests: options.maxRequests)
        var taken = 0
        let stop = "\u{0}stop"
        let visit = { (id: String) -> String? in
            if let sample = options.sample, taken >= sample { return stop }
            let elapsed = started.duration(to: clock.now)
            if elapsed > .seconds(options.timeLimit) {
                report.stopped = "the time limit (\(Int(options.timeLimit)) s) was up after \(taken) sessions"
                return stop
            }
            let stored: StoredSession
            do {
                guard let found = try source.session(id) else {
                    guard options.sessions != nil else { return nil }  // ended meanwhile
                    taken += 1
                    report.record(Self.diverged(id, "the store holds no session with this id"))
                    return nil
                }
                stored = found
            } catch {
                taken += 1
                report.record(Self.diverged(id, "the store could not read the session: \(error)"))
                return nil
            }
            if let since = options.since, stored.lastAccess < since { return nil }
            taken += 1
            report.record(SessionReplayer(source: source, candidate: candidate, options: options).replay(stored))
            return nil
        }
        let failure: String?
        if let ids = options.sessions {
            failure = ids.lazy.compactMap(visit).first
        } else {
            let names = Set(configuration.apps.map(\.name))
            failure = source.forEachStoredSession(of: names) { id, _ in visit(id) }
        }
        if let failure, failure != stop { report.failure = failure }
        let elapsed = started.duration(to: clock.now).components
        report.seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        return report
    }

    /// A session that diverged before any request, for `reason`.
    static func diverged(_ id: String, _ reason: String) -> SessionReplay {
        var result = SessionReplay(session: id)
        result.firstDivergence = ReplayDivergence(reason: reason)
        return result
    }
}
