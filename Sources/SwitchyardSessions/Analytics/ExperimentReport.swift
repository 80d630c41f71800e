import Foundation
import SwitchyardJSON

/// A rollout read as an experiment: per variant (app version), the sessions, their conversion to the goal with a
/// 95 % interval and its difference from the control, the refusals seen, and whether the sessions split as the
/// weights say. Counts, versions and route names only.
public struct ExperimentReport: Sendable {
    /// One variant's row.
    public struct Variant: Sendable, Equatable {
        /// The app version.
        public let version: Int
        /// Its weight in the rollout; nil for a version the rollout does not list (sessions created before).
        public let weight: Int?
        /// The sessions created on it that the filters admit.
        public let sessions: Int
        /// Those that reached the goal.
        public let converted: Int
        /// `converted / sessions`; nil without sessions.
        public let conversion: Double?
        /// Wilson's 95 % interval of the conversion.
        public let interval: ClosedRange<Double>?
        /// The conversion minus the control's; nil for the control or without sessions on either.
        public let difference: Difference?
        /// Guardrails: the sessions with a refusal this node saw.
        public let refusedSessions: Int
        /// The refusals this node saw on its sessions.
        public let refusals: Int
        /// The changes its sessions made (the refusals' denominator).
        public let changes: Int
    }

    /// A difference between two conversions, with its 95 % interval (Newcombe's hybrid score interval).
    public struct Difference: Sendable, Equatable {
        /// The variant's conversion minus the control's (−1 to 1).
        public let value: Double
        /// Its 95 % interval.
        public let interval: ClosedRange<Double>

        /// Whether the interval leaves out 0: the variant converts better or worse than the control.
        public var isSignificant: Bool { !interval.contains(0) }
    }

    /// The app whose rollout is read.
    public let app: String
    /// The goal, as a funnel step (`favourites`, `event:login`).
    public let goal: String
    /// The control: the lowest version the rollout gives new sessions (weight above 0).
    public let control: Int?
    /// Each version the rollout lists or sessions were created on, oldest first.
    public let variants: [Variant]
    /// Whether the sessions split as the weights say.
    public let sampleRatio: SampleRatioCheck
    /// How it was read (a caller may add its own, as `switchyard stats` does).
    public var notes: [String]

    /// `{"app", "goal", "control", "variants": [{"version", "weight", "sessions", "converted", "conversion",
    /// "interval": [low, high], "difference": {"value", "interval", "significant"}, "refusedSessions", "refusals",
    /// "changes"}], "sampleRatio": {"chiSquare", "degreesOfFreedom", "pValue", "mismatch"}, "notes"}`.
    public var json: JSONValue {
        let rounded = { (value: Double) in JSONValue.number(FunnelReport.rounded(value)) }
        let range = { (interval: ClosedRange<Double>) in
            JSONValue.array([rounded(interval.lowerBound), rounded(interval.upperBound)])
        }
        return .object([
            "app": .string(app), "goal": .string(goal), "control": control.map { .number(Double($0)) } ?? .null,
            "variants": .array(
                variants.map { row in
                    .object([
                        "version": .number(Double(row.version)),
                        "weight": row.weight.map { .number(Double($0)) } ?? .null,
                        "sessions": .number(Double(row.sessions)), "converted": .number(Double(row.converted)),
                        "conversion": row.conversion.map(rounded) ?? .null,
                        "interval": row.interval.map(range) ?? .null,
                        "difference": row.difference.map { difference in
                            .object([
                                "value": rounded(difference.value), "interval": range(difference.interval),
                                "significant": .bool(difference.isSignificant),
                            ])
                        } ?? .null,
                        "refusedSessions": .number(Double(row.refusedSessions)),
                        "refusals": .number(Double(row.refusals)), "changes": .number(Double(row.changes)),
                    ])
                }),
            "sampleRatio": .object([
                "chiSquare": rounded(sampleRatio.chiSquare),
                "degreesOfFreedom": .number(Double(sampleRatio.degreesOfFreedom)),
                "pValue": sampleRatio.pValue.map { .number($0) } ?? .null,
                "mismatch": .bool(sampleRatio.isMismatch),
            ]),
            "notes": .array(notes.map { .string($0) }),
        ])
    }

    /// A table for a terminal: one line per variant, the sample ratio check, then the notes.
    public var lines: [String] {
        let percent = { (value: Double?) in value.map(FunnelReport.percent) ?? "–" }
        var lines = ["\(app): conversion to \(goal), per version (control: \(control.map { "v\($0)" } ?? "none"))"]
        lines.append("version  weight  sessions  converted  conversion (95 % interval)      vs control        refused")
        for row in variants {
            let interval = row.interval.map { "\(percent($0.lowerBound))–\(percent($0.upperBound))" } ?? ""
            let difference =
                row.difference.map { difference in
                    let sign = difference.value < 0 ? "−" : "+"
                    // In percentage points: the difference of two shares.
                    let points = FunnelReport.percent(abs(difference.value)).dropLast(2)
                    return sign + points + " pp" + (difference.isSignificant ? " *" : "")
                } ?? (row.version == control ? "control" : "–")
            lines.append(
                FunnelReport.pad("v\(row.version)", 7)
                    + FunnelReport.pad(row.weight.map(String.init) ?? "–", 7, right: true)
                    + FunnelReport.pad(String(row.sessions), 10, right: true)
                    + FunnelReport.pad(String(row.converted), 11, right: true) + "  "
                    + FunnelReport.pad(percent(row.conversion) + " (" + interval + ")", 30)
                    + FunnelReport.pad(difference, 16) + FunnelReport.pad(String(row.refusedSessions), 9, right: true))
        }
        let p = sampleRatio.pValue.map { String(format: "%.3g", $0) } ?? "–"
        lines.append(
            "sample ratio: chi-square \(FunnelReport.rounded(sampleRatio.chiSquare)), p = \(p): "
                + (sampleRatio.isMismatch ? "MISMATCH (the split is not what the weights say)" : "as the weights say"))
        lines.append("* the 95 % interval of the difference leaves out 0")
        return lines + notes.map { "note: \($0)" }
    }
}
