import SwitchyardJSON

/// A funnel's counts: per step, the sessions that reached it, their conversion and the time they took. Counts and
/// route names only.
public struct FunnelReport: Sendable {
    /// One step's row.
    public struct Step: Sendable, Equatable {
        /// The step.
        public let step: FunnelStep
        /// The sessions that reached it (after the steps before it).
        public let sessions: Int
        /// Of those that reached the step before (for the first step: of the sessions counted), the share that
        /// reached this one, from 0 to 1.
        public let fromPrevious: Double
        /// Of those that reached the first step, the share that reached this one.
        public let fromFirst: Double
        /// The median time from the step before, in seconds; nil for the first step or when no time is known.
        public let medianSeconds: Double?
        /// The 90th percentile of that time.
        public let p90Seconds: Double?
    }

    /// The sessions counted (those the filters admit).
    public let sessions: Int
    /// The rows, in the funnel's order.
    public let steps: [Step]
    /// How the counts were read: an empty funnel, no sessions, trimmed histories, a scan cut short.
    public let notes: [String]

    /// The sessions of each step, in order (`[30, 20, 10, 5]`).
    public var counts: [Int] { steps.map(\.sessions) }

    /// `{"sessions", "steps": [{"step", "kind", "sessions", "fromPrevious", "fromFirst", "medianSeconds",
    /// "p90Seconds"}], "notes"}`.
    public var json: JSONValue {
        .object([
            "sessions": .number(Double(sessions)),
            "steps": .array(
                steps.map { row in
                    var kind = "screen"
                    var name = row.step.description
                    if case .event(let event) = row.step { (kind, name) = ("event", event) }
                    return .object([
                        "step": .string(name), "kind": .string(kind), "sessions": .number(Double(row.sessions)),
                        "fromPrevious": .number(Self.rounded(row.fromPrevious)),
                        "fromFirst": .number(Self.rounded(row.fromFirst)),
                        "medianSeconds": row.medianSeconds.map { .number(Self.rounded($0)) } ?? .null,
                        "p90Seconds": row.p90Seconds.map { .number(Self.rounded($0)) } ?? .null,
                    ])
                }),
            "notes": .array(notes.map { .string($0) }),
        ])
    }

    /// A table for a terminal: one line per step, then the notes.
    public var lines: [String] {
        var lines = ["funnel over \(sessions) \(sessions == 1 ? "session" : "sessions")"]
        let width = max(4, steps.map(\.step.description.count).max() ?? 0)
        if !steps.isEmpty {
            lines.append(
                Self.pad("step", width) + "  " + Self.pad("sessions", 8, right: true) + "  "
                    + Self.pad("of previous", 11, right: true) + "  " + Self.pad("of first", 8, right: true) + "  "
                    + Self.pad("median", 8, right: true) + "  " + Self.pad("p90", 7, right: true))
        }
        for row in steps {
            lines.append(
                Self.pad(row.step.description, width) + "  " + Self.pad(String(row.sessions), 8, right: true)
                    + "  " + Self.pad(Self.percent(row.fromPrevious), 11, right: true) + "  "
                    + Self.pad(Self.percent(row.fromFirst), 8, right: true) + "  "
                    + Self.pad(Self.duration(row.medianSeconds), 8, right: true) + "  "
                    + Self.pad(Self.duration(row.p90Seconds), 7, right: true))
        }
        return lines + notes.map { "note: \($0)" }
    }

    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    static func percent(_ share: Double) -> String {
        let tenths = Int((share * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10) %"
    }

    static func duration(_ seconds: Double?) -> String {
        guard let seconds else { return "-" }
        if seconds < 60 { return "\(rounded(seconds)) s" }
        if seconds < 3600 { return "\(Int(seconds / 60)) min" }
        return "\(Int(seconds / 3600)) h"
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let gap = String(repeating: " ", count: max(0, width - text.count))
        return right ? gap + text : text + gap
    }
}
