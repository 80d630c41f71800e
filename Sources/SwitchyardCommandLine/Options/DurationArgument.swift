import ArgumentParser

/// A length of time of at most a week, in seconds or with a unit: `90`, `90s`, `30m`, `2h`.
struct DurationArgument: CheckedArgument, Equatable {
    /// The length of time, a whole number of seconds.
    let duration: Duration

    private static let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600]
    private static let week = 7 * 24 * 3600

    /// Reads a duration from a second to a week.
    init(checking text: String) throws(ArgumentRequirement) {
        var digits = Substring(text)
        var scale = 1
        if let last = text.last, let unit = Self.units[last] {
            digits = digits.dropLast()
            scale = unit
        }
        guard let value = Int(digits), value > 0, value <= Self.week / scale else {
            throw ArgumentRequirement(text: "must be a duration such as 90s, 30m or 2h (at most a week)")
        }
        duration = .seconds(value * scale)
    }

    /// A default written in the code: `.seconds(30)`.
    static func seconds(_ count: Int) -> Self { Self(seconds: count) }

    /// A default written in the code: `.minutes(30)`.
    static func minutes(_ count: Int) -> Self { Self(seconds: count * 60) }

    private init(seconds: Int) {
        precondition(seconds > 0 && seconds <= Self.week, "\(seconds)s is not from a second to a week")
        duration = .seconds(seconds)
    }

    /// The duration in the largest unit that divides it: `30m`, `10s`, `2h`.
    var defaultValueDescription: String {
        let seconds = Int(duration.components.seconds)
        if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
        if seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }
}
