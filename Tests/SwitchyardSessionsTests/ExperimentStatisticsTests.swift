import Testing

@testable import SwitchyardSessions

/// The statistics of a rollout's read-out against published values: Wilson's interval, Newcombe's interval of a
/// difference (his 1998 paper's example), and chi-square p-values from the distribution's tables.
@Suite("Experiment statistics")
struct ExperimentStatisticsTests {
    static func near(_ value: Double?, _ expected: Double, within tolerance: Double = 0.0005) -> Bool {
        guard let value else { return false }
        return abs(value - expected) <= tolerance
    }

    @Test func wilsonsIntervalMatchesItsPublishedValues() throws {
        let half = try #require(Proportion(10, of: 20).wilson())
        #expect(Self.near(half.lowerBound, 0.2993) && Self.near(half.upperBound, 0.7007), "\(half)")
        let none = try #require(Proportion(0, of: 10).wilson())
        #expect(none.lowerBound == 0 && Self.near(none.upperBound, 0.2775), "\(none)")
        let all = try #require(Proportion(10, of: 10).wilson())
        #expect(Self.near(all.lowerBound, 0.7225) && Self.near(all.upperBound, 1), "\(all)")
        #expect(Proportion(0, of: 0).wilson() == nil)
    }

    @Test func newcombesIntervalOfADifferenceMatchesHisExample() throws {
        // Newcombe (1998), Statistics in Medicine 17, table II, example (a): 56/70 − 48/80, interval 0.0524 to 0.3339.
        let difference = try #require(Proportion(56, of: 70).difference(from: Proportion(48, of: 80)))
        #expect(Self.near(difference.value, 0.2))
        #expect(Self.near(difference.interval.lowerBound, 0.0524) && Self.near(difference.interval.upperBound, 0.3339))
        #expect(difference.isSignificant)
        #expect(Proportion(5, of: 10).difference(from: Proportion(4, of: 10))?.isSignificant == false)
    }

    @Test func chiSquarePValuesMatchTheTables() {
        #expect(Self.near(SampleRatioCheck.upperGamma(0.5, 3.841_459 / 2), 0.05, within: 1e-5))
        #expect(Self.near(SampleRatioCheck.upperGamma(1, 5.991_465 / 2), 0.05, within: 1e-5))
        #expect(Self.near(SampleRatioCheck.upperGamma(1.5, 11.344_867 / 2), 0.01, within: 1e-6))
        #expect(Self.near(SampleRatioCheck.upperGamma(0.5, 18 / 2), 2.209_5e-5, within: 1e-8))
        #expect(SampleRatioCheck.upperGamma(2, 0) == 1)
    }

    @Test func aSplitFarFromTheWeightsIsAMismatch() throws {
        let skewed = SampleRatioCheck(observed: [(40, 50), (10, 50)])
        #expect(skewed.chiSquare == 18 && skewed.degreesOfFreedom == 1 && skewed.isMismatch)
        let fair = SampleRatioCheck(observed: [(52, 50), (48, 50)])
        #expect(!fair.isMismatch && Self.near(fair.pValue, 0.6892, within: 0.0005))
        #expect(SampleRatioCheck(observed: [(10, 100)]).pValue == nil, "one variant: nothing to compare")
        #expect(SampleRatioCheck(observed: [(0, 50), (0, 50)]).pValue == nil, "no sessions")
    }
}
