import Foundation

/// Whether the sessions split between a rollout's variants as its weights say: Pearson's chi-square test of the
/// observed counts against the weights. A mismatch (p below 0.001, the threshold experimentation platforms use)
/// means the assignment or the data is broken, and no conversion difference can be trusted.
public struct SampleRatioCheck: Sendable, Equatable {
    /// The chi-square statistic.
    public let chiSquare: Double
    /// Variants minus one.
    public let degreesOfFreedom: Int
    /// The chance of a split at least this far from the weights if the assignment were right; nil with fewer than two
    /// variants or no sessions.
    public let pValue: Double?

    /// The p-value under which the split counts as a mismatch.
    public static let threshold = 0.001

    /// Whether the split does not match the weights.
    public var isMismatch: Bool { (pValue ?? 1) < Self.threshold }

    /// The check of `observed` (each variant's sessions and weight).
    init(observed: [(sessions: Int, weight: Int)]) {
        let total = Double(observed.reduce(0) { $0 + $1.sessions })
        let weights = Double(observed.reduce(0) { $0 + $1.weight })
        degreesOfFreedom = max(0, observed.count - 1)
        guard observed.count >= 2, total > 0, weights > 0 else {
            (chiSquare, pValue) = (0, nil)
            return
        }
        let statistic = observed.reduce(0.0) { sum, variant in
            let expected = total * Double(variant.weight) / weights
            let gap = Double(variant.sessions) - expected
            return sum + gap * gap / expected
        }
        chiSquare = statistic
        pValue = Self.upperGamma(Double(degreesOfFreedom) / 2, statistic / 2)
    }

    /// The regularized upper incomplete gamma function Q(a, x), the chi-square distribution's survival function at
    /// 2x with 2a degrees of freedom: by its series below a + 1, else by its continued fraction (Lentz).
    static func upperGamma(_ a: Double, _ x: Double) -> Double {
        guard x > 0 else { return 1 }
        let logPrefix = a * Foundation.log(x) - x - lgamma(a)
        if x < a + 1 {
            var term = 1 / a
            var sum = term
            var n = a
            for _ in 0..<500 {
                n += 1
                term *= x / n
                sum += term
                if abs(term) < abs(sum) * 1e-15 { break }
            }
            return max(0, 1 - sum * Foundation.exp(logPrefix))
        }
        let tiny = 1e-300
        var b = x + 1 - a
        var c = 1 / tiny
        var d = 1 / b
        var h = d
        for i in 1...500 {
            let an = -Double(i) * (Double(i) - a)
            b += 2
            d = an * d + b
            if abs(d) < tiny { d = tiny }
            c = b + an / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-15 { break }
        }
        return min(1, Foundation.exp(logPrefix) * h)
    }
}
