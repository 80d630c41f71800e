import ArgumentParser
import Foundation
import Logging
import Switchyard
import SwitchyardExplorer
import SwitchyardServer
import SwitchyardSessions

/// `stats`: funnels, paths and exits over the stored sessions, as the admin endpoints answer them (docs/analytics.md).
/// Opens the store serve would (the same options and environment) and reads it; exits 2 on bad input (an unknown
/// step, app or version, with the choices), 1 when the store fails.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract:
            "Funnels, paths between screens, exits and traffic coverage, counted over the stored sessions' histories.",
        discussion:
            "switchyard stats --data DIR --funnel welcome,login,favourites,todo [--app A] [--version V] [--since 24h] [--json]. Takes serve's store options (--data, --store, --database-url, …); app definitions with --definition. docs/analytics.md"
    )

    @Option(help: "The funnel's steps, separated by commas: route names, visible-path prefixes (a/b) or event:NAME.")
    var funnel: String?

    @Option(help: "The most common ways between two screens: FROM,TO.")
    var paths: String?

    @Option(help: "How many ways --paths lists (1 to 1000).")
    var top = 10

    @Flag(help: "Per screen, the sessions that ended there.")
    var exits = false

    @Option(help: "Read APP's rollout as an experiment: conversion to --goal per version, the sample ratio check.")
    var experiment: String?

    @Option(help: "The goal of --experiment: a funnel step (a route, a path prefix or event:NAME).")
    var goal: String?

    @Flag(help: "Which transitions of the app's explored graph (explore) the sessions took, and how often.")
    var coverage = false

    @Option(help: "With --coverage: only the sessions that complete this funnel (steps as --funnel's).")
    var coverageSteps: String?

    @Option(help: "With --coverage: the most states its exploration keeps (explore's --max-states).")
    var maxStates = 20_000

    @Option(help: "With --coverage: the most actions from the start a state is explored at (explore's --max-depth).")
    var maxDepth = 40

    @Option(help: "With --coverage: the most seconds its exploration runs.")
    var exploreTimeLimit = 60.0

    @Option(help: "Only sessions of this app (its name).")
    var app: String?

    @Option(help: "Only sessions created on this app version (a rollout's variant).")
    var version: Int?

    @Option(help: "Only sessions that started at or after this UTC time (2026-11-29T10:00:00Z) or span ago (24h).")
    var since: String?

    @Option(help: "Only sessions that started before this time (same forms as --since).")
    var until: String?

    @Option(help: "The most stored sessions read.")
    var maxSessions = 100_000

    @Option(help: "The most seconds spent reading them.")
    var timeLimit = 60.0

    @Option(name: .customLong("definition"), help: "An app definition to serve, as serve's --app; repeatable.")
    var definitions: [String] = []

    @Flag(help: "Print the reports as JSON.")
    var json = false

    @Argument(
        parsing: .allUnrecognized,
        help: "serve's options for the store and apps: --data, --store, --database-url, --rollout, --demo, …")
    var serveOptions: [String] = []

    mutating func run() throws {
        do {
            print(try output(program: .current))
        } catch let refusal as AnalyticsRefusal {
            ExploredApps.printError("switchyard stats: \(refusal)")
            if case .store = refusal { throw ExitCode(1) }
            throw ExitCode(2)
        }
    }

    /// What `run` prints for `program`'s apps; throws ``AnalyticsRefusal`` for bad input or a failed store.
    func output(program: CommandLineProgram) throws -> String {
        guard funnel != nil || paths != nil || exits || experiment != nil || coverage else {
            throw ValidationError(
                "ask for --funnel STEPS, --paths FROM,TO, --exits, --experiment APP --goal STEP or --coverage")
        }
        guard coverage || coverageSteps == nil else { throw ValidationError("--coverage-steps goes with --coverage") }
        guard (experiment == nil) == (goal == nil) else {
            throw ValidationError("--experiment APP and --goal STEP go together")
        }
        if let experiment, let app, app != experiment {
            throw ValidationError("--experiment reads the rollout of one app: \(experiment), not also --app \(app)")
        }
        let serve = try ServeCommand.parse(definitions.flatMap { ["--app", $0] } + serveOptions)
        let settings = try Settings(command: serve, environment: ProcessInfo.processInfo.environment)
        // Not the logging system's bootstrap: the store's failures go to standard error at the chosen level.
        var logger = Logger(label: "switchyard") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = settings.logLevel
        let (api, store) = try settings.offlineAPI(of: program, logger: logger)
        defer { store.close() }
        let sessions = api.analyticsSessions()
        let filter = try self.filter(now: Date().timeIntervalSince1970)
        let scan = AnalyticsScan(maxSessions: maxSessions, timeLimit: timeLimit)
        var questions = AnalyticsQuestions(
            funnel: funnel, exits: exits, experiment: goal,
            coverage: coverage ? api.coverageQuestion(steps: coverageSteps, limits: explorationLimits) : nil)
        if let paths {
            let ends = paths.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard ends.count == 2 else { throw ValidationError("--paths takes two screens: FROM,TO") }
            questions.paths = (ends[0], ends[1], top)
        }
        // One pass over the store for every report asked.
        let answers = try sessions.answer(questions, filter: filter, scan: scan)
        var reports: [(String, JSONValue, [String])] = []
        if let report = answers.funnel { reports.append(("funnel", report.json, report.lines)) }
        if let report = answers.paths { reports.append(("paths", report.json, report.lines)) }
        // Refusals are kept in a server's memory: this reading has none, and says so (in the JSON too).
        let memoryNote = { (endpoint: String) in "refusals are kept in a server's memory: ask GET \(endpoint)" }
        if var report = answers.exits {
            report.notes.append(memoryNote("/api/admin/exits"))
            reports.append(("exits", report.json, report.lines))
        }
        if var report = answers.experiment {
            report.notes.append(memoryNote("/api/admin/experiment"))
            reports.append(("experiment", report.json, report.lines))
        }
        if let report = answers.coverage { reports.append(("coverage", report.json, report.lines)) }
        if json {
            let value =
                reports.count == 1
                ? reports[0].1 : .object(Dictionary(uniqueKeysWithValues: reports.map { ($0.0, $0.1) }))
            return String(decoding: value.serialized(), as: UTF8.self)
        }
        return (["stored sessions in \(settings.storeDescription)"] + reports.flatMap { [""] + $0.2 })
            .joined(separator: "\n")
    }

    /// The bounds of --coverage's exploration.
    private var explorationLimits: ExplorationLimits {
        ExplorationLimits(states: max(1, maxStates), depth: max(1, maxDepth), seconds: max(0.1, exploreTimeLimit))
    }

    /// The filter the options name.
    private func filter(now: Double) throws -> AnalyticsFilter {
        var filter = AnalyticsFilter(app: experiment ?? app, version: version)
        for (name, text) in [("since", since), ("until", until)] {
            guard let text else { continue }
            guard let time = AnalyticsTime.parse(text, now: now) else {
                throw ValidationError("--\(name) takes a UTC time such as 2026-11-29T10:00:00Z or a span such as 24h")
            }
            if name == "since" { filter.since = time } else { filter.until = time }
        }
        return filter
    }
}
