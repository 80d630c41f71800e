import SwitchyardJSON

/// Which transitions of an explored graph the stored sessions took and how often, the transitions they took that
/// the exploration did not find, and the sessions per screen. Counts and route names only.
public struct CoverageReport: Sendable {
    /// A transition's row.
    public struct Transition: Sendable, Equatable {
        /// The transition.
        public let edge: CoverageGraph.Edge
        /// How often it was taken.
        public let taken: Int
        /// By how many sessions.
        public let sessions: Int
    }

    /// A screen's row.
    public struct Screen: Sendable, Equatable {
        /// The visible path joined by `/`.
        public let screen: String
        /// The sessions that showed it.
        public let sessions: Int
    }

    /// The sessions counted.
    public let sessions: Int
    /// Their changes read (each following the version before).
    public let changes: Int
    /// How many transitions the exploration found (``transitions`` keys them by visible path: it may be fewer).
    public let explored: Int
    /// The explored graph's transitions, those taken most first.
    public let transitions: [Transition]
    /// Changes that matched no transition of the graph, those taken most first.
    public let unexplored: [Transition]
    /// The screens shown, those most sessions showed first.
    public let screens: [Screen]
    /// How it was read (a caller may add its own).
    public var notes: [String]

    /// The transitions taken at least once.
    public var covered: Int { transitions.count { $0.taken > 0 } }

    /// The share of the transitions taken, from 0 to 1 (0 for a graph without transitions).
    public var ratio: Double { transitions.isEmpty ? 0 : Double(covered) / Double(transitions.count) }

    /// `{"sessions", "changes", "covered", "transitions": M, "ratio", "explored", "edges": [{"from", "action",
    /// "to", "taken", "sessions"}], "unexplored": [same], "screens": [{"screen", "sessions"}], "notes"}`; paths
    /// joined by `/`.
    public var json: JSONValue {
        let rows = { (rows: [Transition]) in
            JSONValue.array(
                rows.map { row in
                    .object([
                        "from": .string(row.edge.from.joined(separator: "/")), "action": .string(row.edge.action),
                        "to": .string(row.edge.to.joined(separator: "/")), "taken": .number(Double(row.taken)),
                        "sessions": .number(Double(row.sessions)),
                    ])
                })
        }
        return .object([
            "sessions": .number(Double(sessions)), "changes": .number(Double(changes)),
            "covered": .number(Double(covered)), "transitions": .number(Double(transitions.count)),
            "ratio": .number((ratio * 1000).rounded() / 1000), "explored": .number(Double(explored)),
            "edges": rows(transitions), "unexplored": rows(unexplored),
            "screens": .array(
                screens.map { .object(["screen": .string($0.screen), "sessions": .number(Double($0.sessions))]) }),
            "notes": .array(notes.map { .string($0) }),
        ])
    }

    /// The totals, a line per transition taken (`taken sessions from → action → to`), how many were never taken,
    /// those taken but not explored, then the notes.
    public var lines: [String] {
        let percent = (ratio * 1000).rounded() / 10
        var lines = [
            "coverage by \(sessions) \(sessions == 1 ? "session" : "sessions") (\(changes) changes): "
                + "\(covered) of \(transitions.count) transitions taken (\(percent) %)",
            " taken  sessions  transition (visible path → request → visible path)",
        ]
        let line = { (row: Transition) in
            FunnelReport.pad(String(row.taken), 6, right: true)
                + FunnelReport.pad(String(row.sessions), 10, right: true)
                + "  " + row.edge.from.joined(separator: "/") + " → " + row.edge.action + " → "
                + row.edge.to.joined(separator: "/")
        }
        lines += transitions.filter { $0.taken > 0 }.map(line)
        if covered < transitions.count {
            lines.append("\(transitions.count - covered) transitions never taken (the JSON lists every transition)")
        }
        if !unexplored.isEmpty {
            lines.append("taken but not found by the exploration:")
            lines += unexplored.map(line)
        }
        return lines + notes.map { "note: \($0)" }
    }
}
