import Switchyard
import SwitchyardJSON

/// What a pass over every stored session found (a dry run) or did (a migration): how many sessions of each app
/// version stay current, migrate (and to which version), stay pinned or are lost, with a few examples of each.
package struct MigrationReport: Sendable {
    /// A group of sessions that fare alike.
    package struct Group: Sendable, Hashable, Comparable {
        /// The version they run now.
        package let from: AppVersion
        /// What becomes of them.
        package let outcome: Outcome

        package static func < (lhs: Group, rhs: Group) -> Bool {
            (lhs.from, lhs.outcome.order) < (rhs.from, rhs.outcome.order)
        }
    }

    /// What becomes of a group's sessions.
    package enum Outcome: Sendable, Hashable {
        case current
        case migrates(to: AppVersion)
        case pinned
        case restarts(on: AppVersion)
        case lost

        var order: String {
            switch self {
            case .current: "0"
            case .migrates(let to): "1 \(to)"
            case .pinned: "2"
            case .restarts(let on): "3 \(on)"
            case .lost: "4"
            }
        }
    }

    /// The sessions of a group that land alike (or fail for one reason): where, or why; how many; the first one.
    package struct Example: Sendable {
        package let detail: String
        package var sessions: Int
        package let session: String
    }

    /// How many distinct landings or reasons each group keeps (the rest are counted in the group only).
    package static let examplesPerGroup = 5

    /// Sessions per group.
    package private(set) var counts: [Group: Int] = [:]
    /// The first few sessions of each group.
    package private(set) var examples: [Group: [Example]] = [:]
    /// Sessions the pass could not read (the store failed), with why; the pass stops at the first.
    package var failure: String?

    package init() {}

    mutating func record(_ plan: LiveSessions.Plan, session: String) {
        let (group, detail): (Group, String?) =
            switch plan {
            case .current(let version): (Group(from: version, outcome: .current), nil)
            case .migrates(let from, let to, let path):
                (Group(from: from, outcome: .migrates(to: to)), "lands on " + path.joined(separator: "/"))
            case .pinned(let version, let reason, _): (Group(from: version, outcome: .pinned), reason)
            case .restarts(let from, let to, let path, _):
                (Group(from: from, outcome: .restarts(on: to)), "starts over on " + path.joined(separator: "/"))
            case .lost(let version, let reason): (Group(from: version, outcome: .lost), reason)
            }
        counts[group, default: 0] += 1
        guard let detail else { return }
        if let index = examples[group, default: []].firstIndex(where: { $0.detail == detail }) {
            examples[group]?[index].sessions += 1
        } else if examples[group, default: []].count < Self.examplesPerGroup {
            examples[group, default: []].append(Example(detail: detail, sessions: 1, session: session))
        }
    }

    /// How many sessions would be (or were) lost.
    package var lost: Int {
        counts.filter { $0.key.outcome == .lost }.values.reduce(0, +)
    }

    /// How many sessions would be lost here that are not lost in `other` (a report of the same sessions under other
    /// apps), version by version: what a change of the served apps would lose.
    package func lost(beyond other: MigrationReport) -> Int {
        let lostGroups = counts.filter { $0.key.outcome == .lost }
        return lostGroups.reduce(0) { total, entry in total + max(0, entry.value - (other.counts[entry.key] ?? 0)) }
    }

    /// One line per group, then its examples indented: what an operator reads.
    package var lines: [String] {
        counts.keys.sorted().flatMap { group -> [String] in
            let count = counts[group] ?? 0
            let what =
                switch group.outcome {
                case .current: "current"
                case .migrates(let to): "migrate to \(to)"
                case .pinned: "stay pinned on their version"
                case .restarts(let on): "start over on \(on) (their version was retired)"
                case .lost: "lost (410 when next read)"
                }
            return ["\(group.from): \(count) \(count == 1 ? "session" : "sessions") \(what)"]
                + (examples[group] ?? []).map { "  \($0.sessions) \($0.detail) (e.g. \($0.session))" }
        } + (failure.map { ["stopped: \($0)"] } ?? [])
    }

    /// `{"groups": [{"app", "version", "outcome", "to"?, "sessions", "examples": [{"detail", "sessions", "session"}]}],
    /// "lost",
    /// "failure"?}`.
    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "groups": .array(
                counts.keys.sorted().map { group in
                    var members: [String: JSONValue] = [
                        "app": .string(group.from.name), "version": .number(Double(group.from.version)),
                        "sessions": .number(Double(counts[group] ?? 0)),
                        "examples": .array(
                            (examples[group] ?? []).map {
                                [
                                    "detail": .string($0.detail), "sessions": .number(Double($0.sessions)),
                                    "session": .string($0.session),
                                ]
                            }),
                    ]
                    switch group.outcome {
                    case .current: members["outcome"] = "current"
                    case .migrates(let to):
                        members["outcome"] = "migrates"
                        members["to"] = .number(Double(to.version))
                    case .pinned: members["outcome"] = "pinned"
                    case .restarts(let on):
                        members["outcome"] = "restarts"
                        members["to"] = .number(Double(on.version))
                    case .lost: members["outcome"] = "lost"
                    }
                    return .object(members)
                }),
            "lost": .number(Double(lost)),
        ]
        if let failure { object["failure"] = .string(failure) }
        return .object(object)
    }
}
