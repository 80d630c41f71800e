import Switchyard

/// Funnels, paths and exits over the stored sessions of the served apps (``AnalyticsScan``), for the admin API and
/// `switchyard stats`. Answers hold counts and route names: no session id, data or request leaves this file.
extension LiveSessions {
    /// The funnel of `steps` (a comma-separated list, ``AnalyticsVocabulary/steps(_:)``) over the sessions `filter`
    /// admits.
    package func funnel(
        _ steps: String, filter: AnalyticsFilter, scan: AnalyticsScan = AnalyticsScan()
    ) throws(AnalyticsRefusal) -> FunnelReport {
        let scope = try analyticsScope(filter)
        var funnel = Funnel(steps: try scope.vocabulary.steps(steps))
        let outcome = try read(scope, filter: filter, scan: scan) { funnel.count($0) }
        return funnel.report(notes: outcome.notes)
    }

    /// The `top` most common ways from screen `from` to screen `to` over the sessions `filter` admits.
    package func paths(
        from: String, to: String, top: Int, filter: AnalyticsFilter, scan: AnalyticsScan = AnalyticsScan()
    ) throws(AnalyticsRefusal) -> PathReport {
        let scope = try analyticsScope(filter)
        guard (1...1000).contains(top) else { throw .invalid("top must be from 1 to 1000, not \(top)") }
        var paths = Paths(from: try scope.vocabulary.step(from), to: try scope.vocabulary.step(to))
        for step in [paths.from, paths.to] where step.isEvent {
            throw .invalid("a path goes between screens, and \(step) is an event")
        }
        let outcome = try read(scope, filter: filter, scan: scan) { paths.count($0) }
        return paths.report(top: top, notes: outcome.notes)
    }

    /// Per screen, the sessions `filter` admits that ended there and the refusals this node saw on it.
    package func exits(
        filter: AnalyticsFilter, scan: AnalyticsScan = AnalyticsScan()
    ) throws(AnalyticsRefusal) -> ExitReport {
        let scope = try analyticsScope(filter)
        var refusals: [String: [(version: Int, code: String)]] = [:]
        for (id, session) in sessions.withLock({ $0 }) {
            let kept = session.catchingUp { $0.refusals.entries }
            guard !kept.isEmpty else { continue }
            refusals[id] = kept.map { ($0.version, $0.problem["code"]?.stringValue ?? "status \($0.status)") }
        }
        var exits = Exits()
        let outcome = try read(scope, filter: filter, scan: scan, refusals: { refusals[$0] ?? [] }) {
            exits.count($0)
        }
        return exits.report(notes: outcome.notes)
    }

    /// The apps an analysis covers, their names and their sessions' first screens.
    private struct AnalyticsScope {
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
        return AnalyticsScope(names: names, vocabulary: AnalyticsVocabulary(apps: apps), starts: starts)
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
