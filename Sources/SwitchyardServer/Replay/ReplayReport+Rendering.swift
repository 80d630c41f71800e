import SwitchyardJSON

/// The report as a person reads it, and as a tool does.
extension ReplayReport {
    /// Diverged sessions listed one by one in ``lines`` (the rest are in the groups' counts, and in ``json``).
    public static let sessionsListed = 20

    /// The summary, the groups of divergences with an example each, then the first diverged sessions in detail.
    public var lines: [String] {
        var lines: [String] = []
        if let failure { lines.append("could not replay: \(failure)") }
        let rate = Int(requestsPerSecond.rounded())
        lines.append(
            "\(replayed) \(replayed == 1 ? "session" : "sessions") replayed: \(clean) clean, \(diverged) diverged"
                + " (\(requests) requests in \(Self.secondsText(seconds)), \(rate) requests/s)")
        if cut > 0 { lines.append("\(cut) cut short (see each session's cut in --json)") }
        if let stopped { lines.append("stopped: \(stopped)") }
        for group in groups {
            lines.append("  \(group.sessions) \(group.reason) (e.g. \(group.example))")
        }
        let listed = sessions.filter(\.diverged).prefix(Self.sessionsListed)
        for result in listed {
            guard let divergence = result.firstDivergence else { continue }
            lines.append("session \(result.session)" + (result.recordedApp.map { " (\($0))" } ?? "") + ":")
            if let index = divergence.index, let version = divergence.version {
                let body = divergence.request.map { String(decoding: $0, as: UTF8.self) } ?? ""
                lines.append("  request \(index) (version \(version)): \(body)")
            }
            if let recorded = divergence.recorded { lines.append("  recorded:  \(recorded.text)") }
            if let candidate = divergence.candidate { lines.append("  candidate: \(candidate.text)") }
            lines.append("  reason:    \(divergence.reason)")
            if let detail = divergence.detail { lines.append("  detail:    \(detail)") }
        }
        if diverged > listed.count { lines.append("… \(diverged - listed.count) more diverged sessions in --json") }
        return lines
    }

    /// `{"replayed", "clean", "diverged", "cut", "requests", "seconds", "requestsPerSecond", "groups": [{"reason",
    /// "sessions", "example"}], "sessions": [SessionReplay…], "stopped"?, "failure"?}`.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "replayed": .number(Double(replayed)), "clean": .number(Double(clean)),
            "diverged": .number(Double(diverged)), "cut": .number(Double(cut)),
            "requests": .number(Double(requests)), "seconds": .number(seconds),
            "requestsPerSecond": .number(requestsPerSecond.rounded()),
            "groups": .array(
                groups.map {
                    [
                        "reason": .string($0.reason), "sessions": .number(Double($0.sessions)),
                        "example": .string($0.example),
                    ]
                }),
            "sessions": .array(sessions.map(\.json)),
        ]
        if let stopped { members["stopped"] = .string(stopped) }
        if let failure { members["failure"] = .string(failure) }
        return .object(members)
    }

    private static func secondsText(_ seconds: Double) -> String {
        let hundredths = Int((seconds * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }
}
