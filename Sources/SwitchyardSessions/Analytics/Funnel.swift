/// Counts journeys through an ordered list of steps, one journey at a time (``count(_:)``), and reports them
/// (``report(notes:)``).
///
/// A journey reaches step 1 when any of its steps does (its creation screen included), and step k when a step at or
/// after the one that reached step k − 1 does; an event must be a later change than the step before it, while a
/// screen may show on the same change (a login that lands on the favourites reaches both). Each step is reached at
/// its earliest chance. The time between two steps is the time between the changes that reached them.
public struct Funnel: Sendable {
    /// The steps, in order.
    public let steps: [FunnelStep]
    private let matchers: [FunnelStep.Matcher]
    private var reached: [Int]
    private var waits: [[Double]]
    private var journeys = 0

    /// A funnel of `steps`, nothing counted yet.
    public init(steps: [FunnelStep]) {
        self.steps = steps
        matchers = steps.map(\.matcher)
        reached = Array(repeating: 0, count: steps.count)
        waits = Array(repeating: [], count: steps.count)
    }

    /// Counts `journey`.
    public mutating func count(_ journey: Journey) {
        journeys += 1
        var at: Int?
        for index in steps.indices {
            guard let found = next(index, after: at, in: journey) else { return }
            reached[index] += 1
            if let previous = at, let then = journey.steps[previous].time, let now = journey.steps[found].time {
                waits[index].append(max(0, now - then))
            }
            at = found
        }
    }

    /// Whether `journey` reaches every step, as ``count(_:)`` counts it (a funnel of no steps: every journey).
    public func completes(_ journey: Journey) -> Bool {
        var at: Int?
        for index in steps.indices {
            guard let found = next(index, after: at, in: journey) else { return false }
            at = found
        }
        return true
    }

    /// The index of the journey step that reaches step `index` when step `index − 1` was reached at `at`.
    private func next(_ index: Int, after at: Int?, in journey: Journey) -> Int? {
        let from = at.map { steps[index].isEvent ? $0 + 1 : $0 } ?? 0
        guard from < journey.steps.count else { return nil }
        return journey.steps[from...].firstIndex(where: matchers[index].matches)
    }

    /// What was counted, with `notes` on how it was read.
    public func report(notes: [String] = []) -> FunnelReport {
        var notes = notes
        if steps.isEmpty { notes.append("the funnel has no steps: name them, e.g. steps=welcome,login") }
        if journeys == 0 { notes.append("no stored session matches the filters") }
        let first = reached.first ?? 0
        let rows = steps.indices.map { index in
            let previous = index == 0 ? journeys : reached[index - 1]
            let sorted = waits[index].sorted()
            return FunnelReport.Step(
                step: steps[index], sessions: reached[index],
                fromPrevious: Self.ratio(reached[index], previous), fromFirst: Self.ratio(reached[index], first),
                medianSeconds: Self.percentile(0.5, of: sorted), p90Seconds: Self.percentile(0.9, of: sorted))
        }
        return FunnelReport(sessions: journeys, steps: rows, notes: notes)
    }

    private static func ratio(_ part: Int, _ whole: Int) -> Double {
        whole == 0 ? 0 : Double(part) / Double(whole)
    }

    /// The nearest-rank percentile of `sorted` values; nil when there are none.
    static func percentile(_ fraction: Double, of sorted: [Double]) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count, max(1, rank)) - 1]
    }
}
