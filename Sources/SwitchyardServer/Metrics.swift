import Foundation
import Switchyard
import SwitchyardSessions
import Synchronization

/// Prometheus metrics: requests by route and status and the latency histogram, counted here, with what the session
/// layer counts (live sessions, transitions, stream subscribers, the store).
final class Metrics: Sendable {
    private struct RequestKey: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    private struct Counts {
        var requests: [RequestKey: Int] = [:]
        var latencyCounts = [Int](repeating: 0, count: Metrics.buckets.count + 1)
        var latencySum = 0.0
        var latencyCount = 0
    }

    static let buckets: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1]

    private let counts = Mutex(Counts())
    /// What the session layer counts (sessions, changes, streams, the store).
    let sessions: SessionCounters

    init(sessions: SessionCounters) {
        self.sessions = sessions
    }

    /// Methods counted by name; any other method (the client chooses it) is counted as `OTHER`, so that a client
    /// cannot add series or break the exposition.
    static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    func record(route: String, method: String, status: Int, seconds: Double) {
        let method = Metrics.knownMethods.contains(method) ? method : "OTHER"
        let bucket = Metrics.buckets.firstIndex { seconds <= $0 } ?? Metrics.buckets.count
        counts.withLock { counts in
            counts.requests[RequestKey(route: route, method: method, status: status), default: 0] += 1
            counts.latencyCounts[bucket] += 1
            counts.latencySum += seconds
            counts.latencyCount += 1
        }
    }

    /// `app="…",version="…"`.
    static func labels(_ version: AppVersion) -> String {
        "app=\"\(label(version.name))\",version=\"\(version.version)\""
    }

    /// A label value escaped for the text exposition: backslash, double quote and line feed.
    static func label(_ value: String) -> String {
        guard value.contains(where: { $0 == "\\" || $0 == "\"" || $0 == "\n" }) else { return value }
        return value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    /// The Prometheus text exposition (with the store's commit counts when it reports them).
    func exposition(
        store: ArchiveStatistics? = nil, versions: [AppVersion: Int] = [:], publishedGeneration: Int = 0,
        renderingBytes: Int = 0
    ) -> String {
        let counts = self.counts.withLock { $0 }
        let session = sessions.current
        var text = "# HELP switchyard_http_requests_total HTTP requests by route template, method and status.\n"
        text += "# TYPE switchyard_http_requests_total counter\n"
        for (key, count) in counts.requests.sorted(by: { ($0.key.route, $0.key.status) < ($1.key.route, $1.key.status) }
        ) {
            text +=
                "switchyard_http_requests_total{route=\"\(Self.label(key.route))\",method=\"\(Self.label(key.method))\","
                + "status=\"\(key.status)\"} \(count)\n"
        }
        text += "# HELP switchyard_http_request_duration_seconds Time to answer a request (streams: time to open).\n"
        text += "# TYPE switchyard_http_request_duration_seconds histogram\n"
        var cumulative = 0
        for (index, bound) in Metrics.buckets.enumerated() {
            cumulative += counts.latencyCounts[index]
            text += "switchyard_http_request_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        cumulative += counts.latencyCounts[Metrics.buckets.count]
        text += "switchyard_http_request_duration_seconds_bucket{le=\"+Inf\"} \(cumulative)\n"
        text += "switchyard_http_request_duration_seconds_sum \(counts.latencySum)\n"
        text += "switchyard_http_request_duration_seconds_count \(counts.latencyCount)\n"
        text += "# HELP switchyard_sessions Live sessions.\n# TYPE switchyard_sessions gauge\n"
        text += "switchyard_sessions \(session.sessions)\n"
        text += "# HELP switchyard_transitions_total Transition requests committed.\n"
        text += "# TYPE switchyard_transitions_total counter\nswitchyard_transitions_total \(session.transitions)\n"
        text += "# HELP switchyard_transitions_rejected_total Transition requests refused.\n"
        text += "# TYPE switchyard_transitions_rejected_total counter\n"
        text += "switchyard_transitions_rejected_total \(session.rejected)\n"
        text += "# HELP switchyard_sse_subscribers Open state streams.\n# TYPE switchyard_sse_subscribers gauge\n"
        text += "switchyard_sse_subscribers \(session.subscribers)\n"
        text += "# HELP switchyard_sse_broadcasts_total State changes pushed to subscribers.\n"
        text +=
            "# TYPE switchyard_sse_broadcasts_total counter\nswitchyard_sse_broadcasts_total \(session.broadcasts)\n"
        text += "# HELP switchyard_sessions_restored_total Stored sessions read back into memory.\n"
        text +=
            "# TYPE switchyard_sessions_restored_total counter\nswitchyard_sessions_restored_total \(session.restored)\n"
        text += "# HELP switchyard_sessions_incompatible_total Stored sessions the running app cannot restore.\n"
        text += "# TYPE switchyard_sessions_incompatible_total counter\n"
        text += "switchyard_sessions_incompatible_total \(session.incompatible)\n"
        text += "# HELP switchyard_app_sessions Live sessions in memory, by the app version they run.\n"
        text += "# TYPE switchyard_app_sessions gauge\n"
        for (version, count) in versions.sorted(by: { $0.key < $1.key }) {
            text += "switchyard_app_sessions{\(Self.labels(version))} \(count)\n"
        }
        text += "# HELP switchyard_published_apps_generation The generation of the app versions published through "
        text += "the admin API that this node serves (0: none); nodes of one store agree once each has looked.\n"
        text += "# TYPE switchyard_published_apps_generation gauge\n"
        text += "switchyard_published_apps_generation \(publishedGeneration)\n"
        text += "# HELP switchyard_app_changes_total Change requests answered (transitions, events, deep links, "
        text += "restores), by the app version of the session and whether they were accepted.\n"
        text += "# TYPE switchyard_app_changes_total counter\n"
        for (count, value) in session.changes.sorted(by: { $0.key < $1.key }) {
            text += "switchyard_app_changes_total{\(Self.labels(count.app)),"
            text += "outcome=\"\(count.accepted ? "accepted" : "refused")\"} \(value)\n"
        }
        text += "# HELP switchyard_session_migrations_total Stored sessions offered a newer app version, by the "
        text += "version they were on and whether they migrated, stayed (pinned) or started over (restarted).\n"
        text += "# TYPE switchyard_session_migrations_total counter\n"
        for (count, value) in session.migrations.sorted(by: { $0.key < $1.key }) {
            text += "switchyard_session_migrations_total{\(Self.labels(count.from)),"
            text += "outcome=\"\(count.outcome.rawValue)\"} \(value)\n"
        }
        text +=
            "# HELP switchyard_sessions_caught_up_total Sessions in memory brought to a version another node stored.\n"
        text += "# TYPE switchyard_sessions_caught_up_total counter\n"
        text += "switchyard_sessions_caught_up_total \(session.caughtUp)\n"
        text +=
            "# HELP switchyard_change_conflicts_total Changes run again because another node changed the session first.\n"
        text += "# TYPE switchyard_change_conflicts_total counter\n"
        text += "switchyard_change_conflicts_total \(session.conflicts)\n"
        text += "# HELP switchyard_screen_rendering_bytes Bytes of screens' JSON kept for the next documents of the "
        text += "sessions whose documents were written last (bounded by SessionConfiguration.maxRenderingBytes).\n"
        text += "# TYPE switchyard_screen_rendering_bytes gauge\nswitchyard_screen_rendering_bytes \(renderingBytes)\n"
        text += "# HELP switchyard_store_failures_total Failed writes and reads of the durable store.\n"
        text +=
            "# TYPE switchyard_store_failures_total counter\nswitchyard_store_failures_total \(session.storeFailures)\n"
        if let store {
            text += "# HELP switchyard_store_commits_total Transactions the session store committed.\n"
            text += "# TYPE switchyard_store_commits_total counter\nswitchyard_store_commits_total \(store.commits)\n"
            text += "# HELP switchyard_store_batches_total Writes those commits held (group commit).\n"
            text += "# TYPE switchyard_store_batches_total counter\nswitchyard_store_batches_total \(store.batches)\n"
            if let bytes = store.historyBytes {
                text += "# HELP switchyard_memory_history_bytes Bytes of history (requests and restore documents) "
                text += "the in-memory store holds, within --max-memory-history.\n"
                text += "# TYPE switchyard_memory_history_bytes gauge\nswitchyard_memory_history_bytes \(bytes)\n"
            }
        }
        return text
    }
}
