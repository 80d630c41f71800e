import SwitchyardJSON

/// The most common ways sessions went from one screen to another. Counts and route names only.
public struct PathReport: Sendable {
    /// One way and how many sessions took it.
    public struct Path: Sendable, Equatable {
        /// The screens, from the first to the last (visible paths joined by `/`).
        public let screens: [String]
        /// The sessions that took it.
        public let sessions: Int
    }

    /// Where the ways start.
    public let from: FunnelStep
    /// Where they end.
    public let to: FunnelStep
    /// The sessions counted.
    public let sessions: Int
    /// Those that showed `from`.
    public let started: Int
    /// Those that then showed `to`.
    public let arrived: Int
    /// The most common ways, most taken first.
    public let paths: [Path]
    /// How it was read.
    public let notes: [String]

    /// `{"from", "to", "sessions", "started", "arrived", "paths": [{"screens", "sessions"}], "notes"}`.
    public var json: JSONValue {
        .object([
            "from": .string(from.description), "to": .string(to.description),
            "sessions": .number(Double(sessions)), "started": .number(Double(started)),
            "arrived": .number(Double(arrived)),
            "paths": .array(
                paths.map { path in
                    .object([
                        "screens": .array(path.screens.map { .string($0) }),
                        "sessions": .number(Double(path.sessions)),
                    ])
                }),
            "notes": .array(notes.map { .string($0) }),
        ])
    }

    /// One line per way, then the notes.
    public var lines: [String] {
        var lines = [
            "ways from \(from) to \(to): \(sessions) sessions, \(started) showed \(from), \(arrived) then \(to)"
        ]
        for path in paths {
            lines.append(
                FunnelReport.pad(String(path.sessions), 6, right: true) + "  " + path.screens.joined(separator: " → "))
        }
        return lines + notes.map { "note: \($0)" }
    }
}
