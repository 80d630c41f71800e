/// A weighted rollout read as an experiment, one journey at a time (``count(_:)``): per variant (the app version a
/// session was created on), the sessions that reached a goal, and the guardrails, refusals this node saw.
///
/// A session counts as converted when any of its steps reaches the goal (the screen it was created on included,
/// as in a funnel). The control is the lowest version the rollout gives new sessions: the one already out.
public struct Experiment: Sendable {
    private let goal: FunnelStep
    private let matcher: FunnelStep.Matcher
    private let rollout: AppRollout
    private var variants: [Int: Tally] = [:]
    private var unknownVariant = 0

    /// What one variant's journeys came to.
    private struct Tally {
        var sessions = 0
        var converted = 0
        var changes = 0
        var refusedSessions = 0
        var refusals = 0
    }

    /// A read-out of `rollout` with `goal`.
    public init(goal: FunnelStep, rollout: AppRollout) {
        self.goal = goal
        matcher = goal.matcher
        self.rollout = rollout
    }

    /// Counts `journey`.
    public mutating func count(_ journey: Journey) {
        guard let version = journey.app?.version else {
            unknownVariant += 1
            return
        }
        var tally = variants[version, default: Tally()]
        tally.sessions += 1
        if journey.steps.contains(where: matcher.matches) { tally.converted += 1 }
        tally.changes += journey.steps.count { $0.version > 0 }
        if !journey.refusals.isEmpty { tally.refusedSessions += 1 }
        tally.refusals += journey.refusals.count
        variants[version] = tally
    }

    /// The read-out, with `notes` on how the sessions were read.
    public func report(notes: [String] = []) -> ExperimentReport {
        var notes = notes
        let weights = Dictionary(
            rollout.shares.map { ($0.version, $0.weight) }, uniquingKeysWith: { first, _ in first })
        // The control takes new sessions too: a version the rollout pins (weight 0) holds only sessions of before.
        let control = rollout.shares.filter { $0.weight > 0 }.map(\.version).min()
        let controlTally = control.flatMap { variants[$0] } ?? Tally()
        let controlRate = Proportion(controlTally.converted, of: controlTally.sessions)
        let versions = Set(variants.keys).union(rollout.shares.map(\.version)).sorted()
        let rows = versions.map { version in
            let tally = variants[version] ?? Tally()
            let rate = Proportion(tally.converted, of: tally.sessions)
            return ExperimentReport.Variant(
                version: version, weight: weights[version], sessions: tally.sessions, converted: tally.converted,
                conversion: rate.value, interval: rate.wilson(),
                difference: version == control ? nil : rate.difference(from: controlRate),
                refusedSessions: tally.refusedSessions, refusals: tally.refusals, changes: tally.changes)
        }
        let sampleRatio = SampleRatioCheck(
            observed: rollout.shares.filter { $0.weight > 0 }.map { (variants[$0.version]?.sessions ?? 0, $0.weight) })
        let outside = variants.filter { (weights[$0.key] ?? 0) == 0 }.values.reduce(0) { $0 + $1.sessions }
        if variants.isEmpty { notes.append("no stored session matches the filters") }
        if outside > 0 {
            notes.append(
                "\(outside) sessions are on versions the rollout gives no new sessions: left out of the sample ratio")
        }
        if unknownVariant > 0 {
            notes.append("\(unknownVariant) sessions' creation version was not read: left out")
        }
        notes.append(
            "the sample ratio check assumes the weights held over the whole window: ask from the rollout's start "
                + "(since); refusals are those this node saw")
        return ExperimentReport(
            app: rollout.app, goal: goal.description, control: control, variants: rows, sampleRatio: sampleRatio,
            notes: notes)
    }
}
