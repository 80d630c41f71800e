#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A time bound as people write it, wherever Switchyard takes one (analytics' `since` and `until`, `replay --since`,
/// a replay request's `since`): a date, `2026-11-29` (midnight UTC); an RFC 3339 time, `2026-11-29T10:00:00Z` or
/// `2026-11-29T11:00:00.5+01:00` (seconds and fraction optional, no zone meaning UTC); or a span before now, `90s`,
/// `90m`, `24h`, `7d`.
public enum AnalyticsTime {
    /// The time `text` names (seconds since 1970), `now` being the current time; nil when it names none.
    public static func parse(_ text: String, now: Double) -> Double? {
        if let last = text.last, let unit = ["s": 1.0, "m": 60, "h": 3600, "d": 86400][String(last)],
            let count = Double(text.dropLast()), count >= 0, count.isFinite, !text.dropLast().contains(".")
        {
            return now - count * unit
        }
        let (fields, offset) = zone(text)
        guard let offset else { return nil }
        let parts = fields.split(whereSeparator: { $0 == "T" || $0 == "t" }).map(String.init)
        guard (1...2).contains(parts.count), fields.last != "T", fields.last != "t" else { return nil }
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
            second >= 0, second < 61, second.isFinite
        else { return nil }
        var calendar = tm()
        calendar.tm_year = Int32(year - 1900)
        calendar.tm_mon = Int32(month - 1)
        calendar.tm_mday = Int32(day)
        calendar.tm_hour = Int32(hour)
        calendar.tm_min = Int32(minute)
        return Double(timegm(&calendar)) + second - offset
    }

    /// `text` without its zone, and the zone's offset from UTC in seconds (`Z`, `z` or none: 0; `+01:00`: 3600);
    /// nil when the zone is malformed.
    private static func zone(_ text: String) -> (String, Double?) {
        if text.hasSuffix("Z") || text.hasSuffix("z") { return (String(text.dropLast()), 0) }
        // `±hh:mm` after a time (a date's own `-` are not a zone: they come before any `T`).
        guard let separator = text.firstIndex(where: { $0 == "T" || $0 == "t" }),
            let sign = text[separator...].lastIndex(where: { $0 == "+" || $0 == "-" })
        else { return (text, 0) }
        let zone = text[text.index(after: sign)...].split(separator: ":", omittingEmptySubsequences: false)
        guard zone.count == 2, zone.allSatisfy({ $0.count == 2 }), let hours = Int(zone[0]), let minutes = Int(zone[1]),
            (0...23).contains(hours), (0...59).contains(minutes)
        else { return (text, nil) }
        let offset = Double(hours * 3600 + minutes * 60)
        return (String(text[..<sign]), text[sign] == "+" ? offset : -offset)
    }
}
