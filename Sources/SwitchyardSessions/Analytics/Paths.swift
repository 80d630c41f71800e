/// Counts the ways journeys go from one screen to another, one journey at a time (``count(_:)``).
///
/// A journey's way starts at the first change that shows `from` and ends at the first change at or after it that
/// shows `to`; it is the screens in between (visible paths joined by `/`), each once however long it stayed. Ways
/// longer than ``maxScreens`` keep their start and end around a `…`.
public struct Paths: Sendable {
    /// The most screens a way lists.
    public static let maxScreens = 20
    /// Where the ways start.
    public let from: FunnelStep
    /// Where they end.
    public let to: FunnelStep
    private let fromMatcher: FunnelStep.Matcher
    private let toMatcher: FunnelStep.Matcher
    private var ways: [[String]: Int] = [:]
    private var journeys = 0
    private var started = 0

    /// Ways from `from` to `to` (screens), nothing counted yet.
    public init(from: FunnelStep, to: FunnelStep) {
        self.from = from
        self.to = to
        fromMatcher = from.matcher
        toMatcher = to.matcher
    }

    /// Counts `journey`.
    public mutating func count(_ journey: Journey) {
        journeys += 1
        guard let start = journey.steps.firstIndex(where: fromMatcher.matches) else { return }
        started += 1
        guard let end = journey.steps[start...].firstIndex(where: toMatcher.matches) else { return }
        var screens: [String] = []
        for step in journey.steps[start...end] where screens.last != step.screen {
            screens.append(step.screen)
        }
        if screens.count > Self.maxScreens {
            let half = Self.maxScreens / 2
            screens = screens.prefix(half) + ["…"] + screens.suffix(half - 1)
        }
        ways[screens, default: 0] += 1
    }

    /// The `top` most common ways (ties in the order of their screens), with `notes` on how it was read.
    public func report(top: Int, notes: [String] = []) -> PathReport {
        var notes = notes
        if journeys == 0 { notes.append("no stored session matches the filters") }
        let sorted = ways.sorted {
            ($1.value, $0.key.joined(separator: "\n")) < ($0.value, $1.key.joined(separator: "\n"))
        }
        let arrived = ways.values.reduce(0, +)
        if sorted.count > top { notes.append("\(sorted.count) different ways; the \(top) most common are listed") }
        return PathReport(
            from: from, to: to, sessions: journeys, started: started, arrived: arrived,
            paths: sorted.prefix(top).map { PathReport.Path(screens: $0.key, sessions: $0.value) }, notes: notes)
    }
}
