import ArgumentParser
import Foundation
import Logging
import SwitchyardServer
import SwitchyardSessions

/// `replay`: before a release, re-runs the stored sessions' recorded requests on the candidate apps (given as
/// `serve` is given them: `--app`, `--rollout`; a Swift app's own binary replays on its own apps), in memory, and
/// names every session whose journey now goes elsewhere. The store is opened as `serve` opens it and only read.
/// `serve`'s `--threads` says how many sessions replay at once (default: one per core).
/// Exits 0 when every replayed session matched its recording, 1 when one diverged, 2 when the replay could not run
/// (bad options or apps, a store that cannot be opened or listed).
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Re-run stored sessions' requests on candidate apps, in memory, and report where they diverge.",
        discussion: """
            Give it serve's options for the candidate and the store: switchyard replay --app shop-v2.yaml --data data. \
            serve's --threads says how many sessions replay at once (default: one per core). Exits 0 when nothing \
            diverges, 1 when a session diverges, 2 when the replay could not run.
            """
    )

    @Option(help: "Replay at most N sessions (the first in id order: ids are random, so a random sample).")
    var sample: Int?

    @Option(name: .customLong("session"), help: "Replay this session (repeat for several; any app).")
    var sessions: [String] = []

    @Option(
        help: "Only sessions used since then: a time (2026-11-29T10:00:00Z, 2026-11-29) or a span before now (2h, 7d).")
    var since: String?

    @Option(help: "Requests re-run per session at most (the rest is cut, and said).")
    var maxRequests = 1000

    @Option(help: "Seconds the whole replay may take (the sessions left are not replayed, and said).")
    var timeLimit = 600

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Argument(
        parsing: .allUnrecognized,
        help: "serve's options: --app, --rollout, --store, --data, --database-url, … (and their environment variables)."
    )
    var serveOptions: [String] = []

    func validate() throws {
        if let sample, sample < 1 { throw ValidationError("--sample must be a whole number from 1") }
        if maxRequests < 1 { throw ValidationError("--max-requests must be a whole number from 1") }
        if timeLimit < 1 { throw ValidationError("--time-limit must be a whole number of seconds from 1") }
        if let since, AnalyticsTime.parse(since, now: Date().timeIntervalSince1970) == nil {
            throw ValidationError("--since must be a time such as 2026-11-29T10:00:00Z or a span such as 2h")
        }
    }

    mutating func run() throws {
        let outcome = self.outcome(
            program: CommandLineProgram.current, environment: ProcessInfo.processInfo.environment,
            logger: { $0.makeLogger() })
        for line in outcome.output { print(line) }
        if let error = outcome.error { FileHandle.standardError.write(Data("replay: \(error)\n".utf8)) }
        if outcome.status != 0 { throw ExitCode(outcome.status) }
    }

    /// What a run prints (the report), what it prints on standard error (why it could not run) and its exit
    /// status, for `program`'s apps (those a binary was built with, when no `--app` is given) and `environment`,
    /// logging to what `logger` makes of the settings (the process's logging is set up once).
    func outcome(
        program: CommandLineProgram, environment: [String: String], logger: (Settings) -> Logger
    ) -> ReplayRun {
        do {
            return try replay(program: program, environment: environment, logger: logger)
        } catch {
            // Options, apps or a store that cannot be used: the replay could not run.
            return ReplayRun(output: [], error: "\(error)", status: 2)
        }
    }

    private func replay(
        program: CommandLineProgram, environment: [String: String], logger makeLogger: (Settings) -> Logger
    ) throws -> ReplayRun {
        let serve = try ServeCommand.parse(serveOptions)
        let settings = try Settings(command: serve, environment: environment)
        let logger = makeLogger(settings)
        let (apps, _) = try settings.checkedApps(of: program, logger: logger)
        // Replay reads: it never makes a store where there is none.
        switch settings.store {
        case .sqlite(let folder, _, _, _):
            let path = (folder as NSString).appendingPathComponent(Settings.databaseName)
            guard FileManager.default.fileExists(atPath: path) else {
                throw StoreOpenError(message: "there is no session store at '\(path)' to replay")
            }
        case .memory: throw StoreOpenError(message: "a store in memory holds no sessions to replay")
        case .postgres: break
        }
        let archive = try settings.openedStore(logger: logger)
        defer { archive.close() }
        var candidate = ServerConfiguration(apps: apps)
        candidate.rollouts = settings.rollouts
        var options = ReplayOptions()
        options.sessions = sessions.isEmpty ? nil : sessions
        options.sample = sample
        options.since = since.flatMap { AnalyticsTime.parse($0, now: Date().timeIntervalSince1970) }
        options.maxRequests = maxRequests
        options.timeLimit = Double(timeLimit)
        if let threads = settings.chosenThreads { options.threads = threads }
        let report = StoredReplay(source: archive, candidate: candidate, options: options).run()
        let output =
            json
            ? [String(decoding: report.json.serialized(), as: UTF8.self)]
            : ["replay on \(apps.map(\.identity.description).joined(separator: ", ")) (\(settings.storeDescription)):"]
                + report.lines
        let status: Int32 = report.failure != nil ? 2 : report.diverged > 0 ? 1 : 0
        return ReplayRun(output: output, error: report.failure, status: status)
    }
}

/// What `replay` printed and how it exited.
struct ReplayRun: Sendable {
    /// The report's lines (standard output).
    var output: [String]
    /// Why it could not run (standard error); nil when it ran.
    var error: String?
    /// 0: nothing diverged; 1: a session diverged; 2: the replay could not run.
    var status: Int32
}
