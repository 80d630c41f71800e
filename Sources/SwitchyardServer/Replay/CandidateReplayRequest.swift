import Foundation
import SwitchyardJSON
import SwitchyardSessions

/// The body of `POST /api/admin/apps/{app}/versions/{version}/replay` (every member optional; an empty body takes
/// the defaults): how many stored sessions to replay and how far, within hard maxima, so that a replay on a
/// request's thread stays short.
struct CandidateReplayRequest: StrictRequest {
    /// A bound of the request: its member, its default and the most it may be.
    struct Bound: Sendable {
        let member: String
        let defaultValue: Int
        let maximum: Int
    }

    /// Sessions replayed at most (the first in id order: a random sample, the same one each time).
    static let sample = Bound(member: "sample", defaultValue: 200, maximum: 2000)
    /// Requests re-run per session at most.
    static let maxRequests = Bound(member: "maxRequests", defaultValue: 200, maximum: 1000)
    /// Seconds the replay may take.
    static let timeLimit = Bound(member: "timeLimit", defaultValue: 5, maximum: 30)

    var sample: Int?
    var maxRequests: Int?
    var timeLimit: Int?
    /// Only sessions used since then: a time such as `2026-11-29T10:00:00Z`.
    var since: String?

    static func shape(of value: JSONValue) -> RequestShape { members }

    private static let members = RequestShape.closed(["sample", "maxRequests", "timeLimit", "since"])

    /// The replay's options, one session at a time (the request's thread, no more); 400 for a value out of its
    /// bounds (naming the maximum) or a `since` that is not a time.
    func options() throws -> ReplayOptions {
        var options = ReplayOptions()
        options.sample = try Self.sample.checked(sample)
        options.maxRequests = try Self.maxRequests.checked(maxRequests)
        options.timeLimit = Double(try Self.timeLimit.checked(timeLimit))
        options.resultsKept = options.sample ?? Self.sample.maximum
        options.threads = 1
        if let since {
            guard let time = AnalyticsTime.parse(since, now: Date().timeIntervalSince1970) else {
                throw Problem.malformed("'since' must be a time such as 2026-11-29T10:00:00Z or a span such as 2h")
            }
            options.since = time
        }
        return options
    }
}

extension CandidateReplayRequest.Bound {
    /// `value` (the default when nil), or 400 naming the range when it is outside 1…maximum.
    func checked(_ value: Int?) throws -> Int {
        let value = value ?? defaultValue
        guard (1...maximum).contains(value) else {
            throw Problem.malformed("'\(member)' must be a whole number from 1 to \(maximum); it is \(value)")
        }
        return value
    }
}
