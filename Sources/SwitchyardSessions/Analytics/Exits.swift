/// Counts, per screen, the journeys that end there and the refusals seen on it, one journey at a time
/// (``count(_:)``).
///
/// A journey ends on the screen of its latest stored version. The store deletes a session when it expires, so
/// these are the screens the stored sessions were left on, idle or not yet. A refusal (a 4xx answer: a navigation
/// rule, a guard, a malformed step) is counted on the screen of the version it left the session at; refusals are
/// kept in a node's memory only, the latest few per session in memory, so only the server reports them.
public struct Exits: Sendable {
    private var ended: [String: Int] = [:]
    private var refusals: [String: [String: Int]] = [:]
    private var journeys = 0
    private var unknownEnd = 0
    private var unplaced = 0

    /// Nothing counted yet.
    public init() {}

    /// Counts `journey`.
    public mutating func count(_ journey: Journey) {
        journeys += 1
        if let last = journey.steps.last, !journey.isCut {
            ended[last.screen, default: 0] += 1
        } else {
            unknownEnd += 1
        }
        for refusal in journey.refusals {
            guard let step = journey.step(at: refusal.version) else {
                unplaced += 1
                continue
            }
            refusals[step.screen, default: [:]][refusal.code, default: 0] += 1
        }
    }

    /// The screens, those most sessions ended on first, with `notes` on how it was read.
    public func report(notes: [String] = []) -> ExitReport {
        var notes = notes
        if journeys == 0 { notes.append("no stored session matches the filters") }
        if unknownEnd > 0 {
            notes.append("\(unknownEnd) sessions' latest screen was not read (more history than read, or none kept)")
        }
        if unplaced > 0 { notes.append("\(unplaced) refusals were on versions whose screen is no longer kept") }
        let screens = Set(ended.keys).union(refusals.keys).map { screen in
            ExitReport.Screen(screen: screen, sessions: ended[screen] ?? 0, refusals: refusals[screen] ?? [:])
        }
        return ExitReport(
            sessions: journeys,
            screens: screens.sorted { ($1.sessions, $0.screen) < ($0.sessions, $1.screen) }, notes: notes)
    }
}
