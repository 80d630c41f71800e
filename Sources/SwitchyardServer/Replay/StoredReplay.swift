import Dispatch
import Switchyard
import SwitchyardSessions
import Synchronization

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

    /// Replays the sessions and reports. Sessions are replayed ``ReplayOptions/threads`` at a time, in batches read
    /// from the store in order, and recorded in that order.
    public func run() -> ReplayReport {
        let clock = ContinuousClock()
        let started = clock.now
        var report = ReplayReport(resultsKept: options.resultsKept)
        let candidate = ReplayCandidate(configuration: configuration, maxRequests: options.maxRequests)
        let stop = "\u{0}stop"
        let batchSize = options.threads <= 1 ? 1 : options.threads * 16
        var pending: [String] = []
        // Replays the pending sessions, records them, and says `stop` once a bound is reached.
        let flush = { () -> String? in
            let batch = pending
            pending.removeAll(keepingCapacity: true)
            let results = Mutex([SessionReplay?](repeating: nil, count: batch.count))
            DispatchQueue.concurrentPerform(iterations: batch.count) { index in
                let result = replay(batch[index], on: candidate)
                results.withLock { $0[index] = result }
            }
            for result in results.withLock({ $0 }).compactMap(\.self) {
                if let sample = options.sample, report.replayed >= sample { return stop }
                report.record(result)
            }
            if let sample = options.sample, report.replayed >= sample { return stop }
            if started.duration(to: clock.now) > .seconds(options.timeLimit) {
                report.stopped = "the time limit (\(Int(options.timeLimit)) s) was up after \(report.replayed) sessions"
                return stop
            }
            return nil
        }
        let visit = { (id: String) -> String? in
            pending.append(id)
            let room = options.sample.map { $0 - report.replayed } ?? batchSize
            return pending.count >= min(batchSize, room) ? flush() : nil
        }
        var failure: String?
        if let ids = options.sessions {
            var seen: Set<String> = []
            failure = ids.lazy.filter { seen.insert($0).inserted }.compactMap(visit).first
        } else {
            let names = Set(configuration.apps.map(\.name))
            failure = source.forEachStoredSession(of: names) { id, _ in visit(id) }
        }
        if failure == nil, !pending.isEmpty { failure = flush() }
        if let failure, failure != stop { report.failure = failure }
        let elapsed = started.duration(to: clock.now).components
        report.seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        return report
    }

    /// Replays stored session `id`; nil when it is not to be replayed (it ended meanwhile, or was not used since
    /// ``ReplayOptions/since``).
    private func replay(_ id: String, on candidate: ReplayCandidate) -> SessionReplay? {
        let stored: StoredSession
        do {
            guard let found = try source.session(id) else {
                return options.sessions == nil ? nil : Self.diverged(id, "the store holds no session with this id")
            }
            stored = found
        } catch {
            return Self.diverged(id, "the store could not read the session: \(error)")
        }
        if let since = options.since, stored.lastAccess < since { return nil }
        return SessionReplayer(source: source, candidate: candidate, options: options).replay(stored)
    }

    /// A session that diverged before any request, for `reason`.
    static func diverged(_ id: String, _ reason: String) -> SessionReplay {
        var result = SessionReplay(session: id)
        result.firstDivergence = ReplayDivergence(reason: reason)
        return result
    }
}
