import Foundation
import Switchyard
import SwitchyardSessions
import Synchronization

/// Prometheus metrics: requests by route and status and the latency histogram, counted here, with what the session
/// layer counts (live sessions, transitions, stream subscribers, the store), which it writes itself.
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

    /// The Prometheus text exposition: the requests counted here around what the session layer counts
    /// (``SwitchyardSessions/LiveSessions/writeMetrics(into:publishedGeneration:)``).
    func exposition(of sessions: LiveSessions, publishedGeneration: Int) -> String {
        let counts = self.counts.withLock { $0 }
        var metrics = MetricsText()
        metrics.family(
            "switchyard_http_requests_total", .counter, "HTTP requests by route template, method and status.",
            samples: counts.requests.sorted { ($0.key.route, $0.key.status) < ($1.key.route, $1.key.status) }.map {
                key, count in
                let route = MetricsText.label(key.route)
                return (
                    "route=\"\(route)\",method=\"\(MetricsText.label(key.method))\",status=\"\(key.status)\"",
                    "\(count)"
                )
            })
        var cumulative = 0
        var buckets: [(labels: String, value: String)] = []
        for (index, bound) in Metrics.buckets.enumerated() {
            cumulative += counts.latencyCounts[index]
            buckets.append(("le=\"\(bound)\"", "\(cumulative)"))
        }
        cumulative += counts.latencyCounts[Metrics.buckets.count]
        buckets.append(("le=\"+Inf\"", "\(cumulative)"))
        metrics.family(
            "switchyard_http_request_duration_seconds", .histogram,
            "Time to answer a request (streams: time to open).", samples: [])
        for (labels, value) in buckets {
            metrics.append("switchyard_http_request_duration_seconds_bucket{\(labels)} \(value)\n")
        }
        metrics.append("switchyard_http_request_duration_seconds_sum \(counts.latencySum)\n")
        metrics.append("switchyard_http_request_duration_seconds_count \(counts.latencyCount)\n")
        sessions.writeMetrics(into: &metrics, publishedGeneration: publishedGeneration)
        return metrics.text
    }
}
