/// Suggestions for misspelt names (`presentaton` → `presentation`), for error messages and diagnostics.
package enum Spelling {
    /// The allowed name closest to `name` by edit distance, when it is close enough to be a misspelling.
    package static func nearest(to name: String, in allowed: [String]) -> String? {
        let scored = allowed.map { ($0, distance(name.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(1, min(name.count, best.0.count) / 3) ? best.0 : nil
    }

    /// Levenshtein distance.
    private static func distance(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a), Array(b))
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
