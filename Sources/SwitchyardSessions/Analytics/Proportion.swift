import Foundation

/// A share of sessions, `count` of `total`, and the 95 % intervals an experiment's read-out gives for it.
struct Proportion: Sendable {
    let count: Int
    let total: Int

    init(_ count: Int, of total: Int) {
        self.count = count
        self.total = total
    }

    /// The two-sided 95 % normal quantile.
    static let z = 1.959_963_984_540_054

    /// The share; nil of no sessions.
    var value: Double? { total == 0 ? nil : Double(count) / Double(total) }

    /// Wilson's score interval (95 %): within [0, 1], and sound for small samples and shares near 0 or 1, where the
    /// normal approximation is not. Nil of no sessions.
    func wilson() -> ClosedRange<Double>? {
        guard let p = value else { return nil }
        let n = Double(total)
        let z2 = Self.z * Self.z
        let center = (p + z2 / (2 * n)) / (1 + z2 / n)
        let half = Self.z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot() / (1 + z2 / n)
        return max(0, center - half)...min(1, center + half)
    }

    /// This share minus `control`'s, with Newcombe's hybrid score interval (95 %, from both Wilson intervals); nil
    /// when either has no sessions.
    func difference(from control: Proportion) -> ExperimentReport.Difference? {
        guard let p1 = value, let p2 = control.value, let i1 = wilson(), let i2 = control.wilson() else { return nil }
        let d = p1 - p2
        let lower =
            d
            - ((p1 - i1.lowerBound) * (p1 - i1.lowerBound) + (i2.upperBound - p2) * (i2.upperBound - p2))
            .squareRoot()
        let upper =
            d
            + ((i1.upperBound - p1) * (i1.upperBound - p1) + (p2 - i2.lowerBound) * (p2 - i2.lowerBound))
            .squareRoot()
        return ExperimentReport.Difference(value: d, interval: lower...upper)
    }
}
