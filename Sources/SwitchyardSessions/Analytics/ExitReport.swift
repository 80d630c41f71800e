import SwitchyardJSON

/// Per screen, how many sessions ended there and the refusals seen on it by code. Counts and route names only.
public struct ExitReport: Sendable {
    /// One screen's row.
    public struct Screen: Sendable, Equatable {
        /// The visible path joined by `/`.
        public let screen: String
        /// The sessions whose latest version shows it.
        public let sessions: Int
        /// The refusals seen on it, by problem code.
        public let refusals: [String: Int]
    }

    /// The sessions counted.
    public let sessions: Int
    /// The screens, those most sessions ended on first.
    public let screens: [Screen]
    /// How it was read (a caller may add its own, as `switchyard stats` does).
    public var notes: [String]

    /// `{"sessions", "screens": [{"screen", "sessions", "refusals": {code: count}}], "notes"}`.
    public var json: JSONValue {
        .object([
            "sessions": .number(Double(sessions)),
            "screens": .array(
                screens.map { row in
                    .object([
                        "screen": .string(row.screen), "sessions": .number(Double(row.sessions)),
                        "refusals": .object(row.refusals.mapValues { .number(Double($0)) }),
                    ])
                }),
            "notes": .array(notes.map { .string($0) }),
        ])
    }

    /// One line per screen, then the notes.
    public var lines: [String] {
        var lines = [
            "exits of \(sessions) \(sessions == 1 ? "session" : "sessions") (sessions ending there, refusals seen)"
        ]
        for row in screens {
            let refused = row.refusals.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            lines.append(
                FunnelReport.pad(String(row.sessions), 6, right: true) + "  " + row.screen
                    + (refused.isEmpty ? "" : "  (refused: " + refused.joined(separator: ", ") + ")"))
        }
        return lines + notes.map { "note: \($0)" }
    }
}
