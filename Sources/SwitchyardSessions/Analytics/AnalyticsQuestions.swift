import Switchyard

/// What one pass over the stored sessions counts: a funnel, the ways between two screens, the exits, or several of
/// them at once (``LiveSessions/answer(_:filter:scan:)``).
package struct AnalyticsQuestions: Sendable {
    /// The funnel's steps, separated by commas (``AnalyticsVocabulary/steps(_:)``); nil: no funnel.
    package var funnel: String?
    /// The screens the ways go between and how many to list; nil: no ways.
    package var paths: (from: String, to: String, top: Int)?
    /// Whether to count the exits.
    package var exits: Bool
    /// The goal of the rollout read-out (a funnel step) of the filter's app; nil: no read-out.
    package var experiment: String?
    /// Traffic coverage of the filter's app (``TrafficCoverage``); nil: none.
    package var coverage: CoverageQuestion?

    /// The questions; without arguments, none.
    package init(
        funnel: String? = nil, paths: (from: String, to: String, top: Int)? = nil, exits: Bool = false,
        experiment: String? = nil, coverage: CoverageQuestion? = nil
    ) {
        self.funnel = funnel
        self.paths = paths
        self.exits = exits
        self.experiment = experiment
        self.coverage = coverage
    }
}

/// Traffic coverage asked: how to explore an app version's graph (the sessions layer knows no explorer), and the
/// funnel whose completing sessions alone are counted.
package struct CoverageQuestion: Sendable {
    /// The graph of an app version.
    package var explore: @Sendable (NavigationApp) throws(AnalyticsRefusal) -> CoverageGraph
    /// A funnel's steps (``AnalyticsVocabulary/steps(_:)``): only sessions that complete it count; nil: all.
    package var steps: String?

    /// A question.
    package init(
        steps: String? = nil, explore: @escaping @Sendable (NavigationApp) throws(AnalyticsRefusal) -> CoverageGraph
    ) {
        self.steps = steps
        self.explore = explore
    }
}

/// The answers to ``AnalyticsQuestions``, one per question asked.
package struct AnalyticsAnswers: Sendable {
    /// The funnel, if asked.
    package var funnel: FunnelReport?
    /// The ways, if asked.
    package var paths: PathReport?
    /// The exits, if asked.
    package var exits: ExitReport?
    /// The rollout read-out, if asked.
    package var experiment: ExperimentReport?
    /// Traffic coverage, if asked.
    package var coverage: CoverageReport?
}
