import Switchyard

/// Funnels, paths and exits over the stored sessions of the served apps (``AnalyticsScan``), for the admin API and
/// `switchyard stats`. Answers hold counts and route names: no session id, data or request leaves this file.
extension LiveSessions {
    /// The funnel of `steps` (a comma-separated list, ``AnalyticsVocabulary/steps(_:)``) over the sessions `filter`
    /// admits.
    package func funnel(
        _ steps: String, filter: AnalyticsFilter, scan: AnalyticsScan = AnalyticsScan()
    ) throws(AnalyticsRefusal) -> FunnelReport {
        try answer(AnalyticsQuestions(funnel: steps), filter: filter, scan: scan).funnel ?? Funnel(steps: []).report()
    }

    /// The `top` most common ways from screen `from` to screen `to` over the sessions `filter` admits.
    package func paths(
        from: String, to: String, top: Int, filter: AnalyticsFilter, scan: AnalyticsScan = AnalyticsScan()
    ) throws(AnalyticsRefusal) -> PathReport {
        let answers = try answer(AnalyticsQuestions(paths: (from, to, top)), filter: filter, scan: scan)
        guard let paths = answers.paths else { throw .invalid("no ways were counted") }
        return paths
    }

    /// Per screen, the sessions `filter` admits that ended there and the refusals this node saw on it.
    package func exits(
        filter: AnalyticsFilter, scan: AnalyticsScan = AnalyticsScan()
    ) throws(AnalyticsRefusal) -> ExitReport {
        try answer(AnalyticsQuestions(exits: true), filter: filter, scan: scan).exits ?? Exits().report()
    }

    /// The rollout of the filter's app read as an experiment with `goal` (a funnel step): per version, conversion
    /// with intervals, the sample ratio check and the refusals seen.
    package func experiment(
        goal: String, filter: AnalyticsFilter, scan: AnalyticsScan = AnalyticsScan()
    ) throws(AnalyticsRefusal) -> ExperimentReport {
        let answers = try answer(AnalyticsQuestions(experiment: goal), filter: filter, scan: scan)
        guard let report = answers.experiment else { throw .invalid("no read-out was made") }
        return report
    }

    /// Which transitions of the filter's app's explored graph (`explore` gives it per app version) the sessions
    /// `filter` admits took, with the sessions per screen; of the sessions that complete the funnel `steps` only.
    package func coverage(
        _ question: CoverageQuestion, filter: AnalyticsFilter, scan: AnalyticsScan = AnalyticsScan()
    ) throws(AnalyticsRefusal) -> CoverageReport {
        let answers = try answer(AnalyticsQuestions(coverage: question), filter: filter, scan: scan)
        guard let report = answers.coverage else { throw .invalid("no coverage was counted") }
        return report
    }

    /// The answers to `questions` over the sessions `filter` admits, in one pass over the store: every question is
    /// checked before anything is read.
    package func answer(
        _ questions: AnalyticsQuestions, filter: AnalyticsFilter, scan: AnalyticsScan = AnalyticsScan()
    ) throws(AnalyticsRefusal) -> AnalyticsAnswers {
        let scope = try analyticsScope(filter)
        var funnel = try questions.funnel.map { steps throws(AnalyticsRefusal) in
            Funnel(steps: try scope.vocabulary.steps(steps))
        }
        var paths: Paths?
        if let asked = questions.paths {
            guard (1...1000).contains(asked.top) else { throw .invalid("top must be from 1 to 1000, not \(asked.top)") }
            let ends = (from: try scope.vocabulary.step(asked.from), to: try scope.vocabulary.step(asked.to))
            for step in [ends.from, ends.to] where step.isEvent {
                throw .invalid("a path goes between screens, and \(step) is an event")
            }
            paths = Paths(from: ends.from, to: ends.to)
        }
        var exits = questions.exits ? Exits() : nil
        var experiment = try questions.experiment.map { goal throws(AnalyticsRefusal) in
            guard let app = filter.app else { throw .invalid("a read-out is of one app: name it (app)") }
            guard filter.version == nil else {
                throw .invalid("a read-out compares the versions of a rollout: leave the version out")
            }
            guard let rollout = servedApps.apps.rollout(of: app) else { throw .unknownApp(app, choices: scope.names) }
            return Experiment(goal: try scope.vocabulary.step(goal), rollout: rollout)
        }
        var coverage = try questions.coverage.map { asked throws(AnalyticsRefusal) in
            guard scope.names.count == 1 else {
                throw .invalid(
                    "coverage is of one app's graph: name the app (apps: \(scope.names.joined(separator: ", ")))")
            }
            let funnel = try asked.steps.map { steps throws(AnalyticsRefusal) in
                Funnel(steps: try scope.vocabulary.steps(steps))
            }
            var graphs: [CoverageGraph] = []
            for app in scope.apps { graphs.append(try asked.explore(app)) }
            return TrafficCoverage(graph: .merging(graphs), funnel: funnel)
        }
        var scan = scan
        if questions.coverage != nil { scan.readsActions = true }
        var refusals: [String: [(version: Int, code: String)]] = [:]
        if questions.exits || questions.experiment != nil {
            for (id, session) in sessions.withLock({ $0 }) {
                let kept = session.keptRefusals
                guard !kept.isEmpty else { continue }
                refusals[id] = kept.map { ($0.version, $0.problem["code"]?.stringValue ?? "status \($0.status)") }
            }
        }
        let outcome = try read(scope, filter: filter, scan: scan, refusals: { refusals[$0] ?? [] }) { journey in
            funnel?.count(journey)
            paths?.count(journey)
            exits?.count(journey)
            experiment?.count(journey)
            coverage?.count(journey)
        }
        return AnalyticsAnswers(
            funnel: funnel?.report(notes: outcome.notes),
            paths: questions.paths.flatMap { asked in paths?.report(top: asked.top, notes: outcome.notes) },
            exits: exits?.report(notes: outcome.notes), experiment: experiment?.report(notes: outcome.notes),
            coverage: coverage?.report(notes: outcome.notes))
    }

    /// The apps an analysis covers, their names and their sessions' first screens.
    private struct AnalyticsScope {
        let apps: [NavigationApp]
        let names: [String]
        let vocabulary: AnalyticsVocabulary
        let starts: [AppVersion: [String]]
    }

    /// Checks `filter` against the served apps: an app or version not served is refused with the choices.
    private func analyticsScope(_ filter: AnalyticsFilter) throws(AnalyticsRefusal) -> AnalyticsScope {
        let served = servedApps.apps
        var apps = served.apps
        if let app = filter.app {
            guard served.names.contains(app) else { throw .unknownApp(app, choices: served.names) }
            apps = served.versions(of: app)
        }
        if let version = filter.version {
            let versions = Set(apps.map(\.version)).sorted()
            guard versions.contains(version) else {
                throw .unknownVersion(version, app: filter.app, choices: versions)
            }
            apps = apps.filter { $0.version == version }
        }
        if let since = filter.since, let until = filter.until, until <= since {
            throw .invalid("the window ends (until) before it starts (since)")
        }
        var starts: [AppVersion: [String]] = [:]
        for app in apps {
            starts[app.identity] = try? app.makeEngine().visiblePath
        }
        var names: [String] = []
        for app in apps where !names.contains(app.name) { names.append(app.name) }
        return AnalyticsScope(apps: apps, names: names, vocabulary: AnalyticsVocabulary(apps: apps), starts: starts)
    }

    private func read(
        _ scope: AnalyticsScope, filter: AnalyticsFilter, scan: AnalyticsScan,
        refusals: (String) -> [(version: Int, code: String)] = { _ in [] }, visit: (Journey) -> Void
    ) throws(AnalyticsRefusal) -> AnalyticsScan.Outcome {
        do {
            return try scan.run(
                archive, apps: scope.names, filter: filter, start: { scope.starts[$0] }, refusals: refusals,
                visit: visit)
        } catch {
            throw .store(health.failed(error, during: "read sessions for analytics"))
        }
    }
}
