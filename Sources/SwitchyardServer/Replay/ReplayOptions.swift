import Foundation

/// Which stored sessions a replay takes, and its bounds: a replay never runs longer, nor holds more, than these say,
/// and its report says what they cut.
public struct ReplayOptions: Sendable {
    /// These sessions only (any app), in this order; nil: the stored sessions of the candidate's apps, in app name,
    /// then id order.
    public var sessions: [String]?
    /// At most this many sessions (nil: all). Session ids are random, so the first ones in id order are a random
    /// sample, and the same store gives the same sample.
    public var sample: Int?
    /// Only sessions used at or after this time (seconds since 1970).
    public var since: Double?
    /// Requests re-run per session at most: the rest of a longer history is cut (said per session). A session's
    /// history is read a page at a time, so a replay holds at most about this many entries.
    public var maxRequests: Int = 1000
    /// How long the whole replay may take, in seconds: the sessions left when it is up are not replayed, and the
    /// report says so.
    public var timeLimit: Double = 600
    /// Per-session results the report keeps of clean sessions, and of diverged ones (each counted apart): a replay
    /// of a million sessions holds their counts, not a million results.
    public var resultsKept: Int = 10_000

    /// Sessions replayed at once (each on a thread of its own; the candidate and the store are shared).
    public var threads: Int = ProcessInfo.processInfo.activeProcessorCount

    /// Every stored session of the candidate's apps, within the default bounds.
    public init() {}
}
