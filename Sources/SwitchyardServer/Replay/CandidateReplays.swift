import Switchyard
import SwitchyardJSON
import Synchronization

/// The latest replay of each candidate app version on this node (`POST /api/admin/apps/{app}/versions/{version}/
/// replay`), kept in memory for the page to show and for a rollout that requires a clean replay to check; and the
/// one replay running, as replays run one at a time.
///
/// Decisions: reports live in this node's memory, not in the store: a replay is a check before a rollout, made
/// again in seconds, and a restart (or another node) simply has none yet. A version never changes once published,
/// so its latest report stays its report until the next replay.
final class CandidateReplays: Sendable {
    /// A replay's report with what it ran on and when.
    struct Latest: Sendable {
        /// The candidate version.
        var candidate: AppVersion
        /// When it ran (seconds since 1970).
        var time: Double
        var report: ReplayReport

        /// Whether it ran and nothing diverged.
        var isClean: Bool { report.failure == nil && report.diverged == 0 }

        /// The report's JSON (``ReplayReport/json``, as `switchyard replay --json` prints it) with `candidate`
        /// (`{"name", "version"}`) and `time` (seconds since 1970).
        var json: JSONValue {
            guard case .object(var members) = report.json else { return report.json }
            members["candidate"] = candidate.json
            members["time"] = .number(time)
            return .object(members)
        }
    }

    private struct State {
        var latest: [AppVersion: Latest] = [:]
        var running = false
    }

    private let state = Mutex(State())

    /// The latest report of `candidate`, if it was replayed on this node.
    func latest(_ candidate: AppVersion) -> Latest? {
        state.withLock { $0.latest[candidate] }
    }

    /// Runs `replay` unless another replay is running (then nil), and keeps what it reports as `candidate`'s
    /// latest.
    func run(_ candidate: AppVersion, at time: Double, _ replay: () -> ReplayReport) -> Latest? {
        let started = state.withLock { state in
            guard !state.running else { return false }
            state.running = true
            return true
        }
        guard started else { return nil }
        let report = replay()
        let latest = Latest(candidate: candidate, time: time, report: report)
        state.withLock { state in
            state.latest[candidate] = latest
            state.running = false
        }
        return latest
    }
}
