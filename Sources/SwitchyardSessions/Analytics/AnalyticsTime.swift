#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A time bound of an analysis as people write it: `2026-11-29`, `2026-11-29T10:00:00Z` (UTC, seconds and
/// fraction optional), or a span before now, `90m`, `24h`, `7d`.
public enum AnalyticsTime {
    /// The time `text` names (seconds since 1970), `now` being the current time; nil when it names none.
    public static func parse(_ text: String, now: Double) -> Double? {
        if let last = text.last, let unit = ["s": 1.0, "m": 60, "h": 3600, "d": 86400][String(last)],
            let count = Double(text.dropLast()), count >= 0, count.isFinite, !text.dropLast().contains(".")
        {
            return now - count * unit
        }
        let fields = text.hasSuffix("Z") ? String(text.dropLast()) : text
        let parts = fields.split(separator: "T", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return nil }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        let clock = parts.count == 2 ? parts[1].split(separator: ":", omittingEmptySubsequences: false) : []
        guard date.count == 3, parts[0].count == 10, let year = date[0], let month = date[1], let day = date[2],
            (1...12).contains(month), (1...31).contains(day), (1970...9999).contains(year),
            parts.count == 1 || (2...3).contains(clock.count)
        else { return nil }
        let hour = clock.count > 0 ? Int(clock[0]) : 0
        let minute = clock.count > 1 ? Int(clock[1]) : 0
        let second = clock.count > 2 ? Double(clock[2]) : 0
        guard let hour, let minute, let second, (0...23).contains(hour), (0...59).contains(minute),
            second >= 0, second < 61
        else { return nil }
        var calendar = tm()
        calendar.tm_year = Int32(year - 1900)
        calendar.tm_mon = Int32(month - 1)
        calendar.tm_mday = Int32(day)
        calendar.tm_hour = Int32(hour)
        calendar.tm_min = Int32(minute)
        return Double(timegm(&calendar)) + second
    }
}
