import Foundation

/// `replay --since`: a time (ISO 8601, `2026-11-29T10:00:00Z`) or a duration ago (`90s`, `30m`, `2h`, up to a week).
enum ReplaySince {
    /// The time `text` names, in seconds since 1970; nil when it names none.
    static func seconds(_ text: String, now: Date) -> Double? {
        if let ago = DurationArgument(argument: text) {
            return now.timeIntervalSince1970 - Double(ago.duration.components.seconds)
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)?.timeIntervalSince1970
    }
}
