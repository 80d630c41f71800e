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

    /// The questions; without arguments, none.
    package init(
        funnel: String? = nil, paths: (from: String, to: String, top: Int)? = nil, exits: Bool = false,
        experiment: String? = nil
    ) {
        self.funnel = funnel
        self.paths = paths
        self.exits = exits
        self.experiment = experiment
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
}
