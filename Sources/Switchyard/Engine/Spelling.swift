/// Suggestions for misspelt names (`presentaton` → `presentation`), for error messages and diagnostics.
package enum Spelling {
    /// The allowed name closest to `name` by edit distance, when it is close enough to be a misspelling.
    package static func nearest(to name: String, in allowed: [String]) -> String? {
        let length = name.count
        // A length difference above the limit is already too far: such names are not compared at all, so that a
        // long name costs nothing.
        let scored = allowed.compactMap { candidate -> (String, Int)? in
            guard abs(candidate.count - length) <= limit(length, candidate.count) else { return nil }
            return (candidate, distance(name.lowercased(), candidate.lowercased()))
        }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= limit(length, best.0.count) ? best.0 : nil
    }

    /// The largest distance still taken for a misspelling.
    private static func limit(_ a: Int, _ b: Int) -> Int {
        max(1, min(a, b) / 3)
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
