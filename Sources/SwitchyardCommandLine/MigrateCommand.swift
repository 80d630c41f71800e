import ArgumentParser
import Foundation
import Switchyard
import SwitchyardDefinitions
import SwitchyardServer
import SwitchyardSessions

/// `migrate`: for a release, goes over every stored session under the app versions and rollouts `serve` would run
/// with (the same options and environment, and the versions published in the store), and reports how many of each version stay current, migrate (where
/// to), stay pinned or would be lost, with examples. A dry run unless `--apply`; exits 2 when sessions would be (or
/// were) lost, 1 when the apps or the store could not be used.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract:
            "Report what the served app versions do with every stored session (a dry run), or migrate them (--apply).",
        discussion:
            "Give it serve's options for the apps, rollouts and store: switchyard migrate --app shop-v1.yaml --app shop-v2.yaml --database-url … Exits 2 when a session would be lost."
    )

    @Flag(help: "Migrate the sessions that migrate, each as a new version of it (default: a dry run, nothing changes).")
    var apply = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Argument(
        parsing: .allUnrecognized,
        help: "serve's options: --app, --rollout, --store, --data, --database-url, … (and their environment variables)."
    )
    var serveOptions: [String] = []

    mutating func run() throws {
        let serve = try ServeCommand.parse(serveOptions)
        let settings = try Settings(command: serve, environment: ProcessInfo.processInfo.environment)
        let logger = settings.makeLogger()
        let (api, store) = try settings.offlineAPI(of: CommandLineProgram.current, logger: logger)
        defer { store.close() }
        // With the versions published in the store (through the admin API), as serve would serve them.
        let report = api.migrateStored(apply: apply)
        if json {
            print(String(decoding: report.json.serialized(), as: UTF8.self))
        } else {
            print(apply ? "migrated (\(settings.storeDescription)):" : "dry run (\(settings.storeDescription)):")
            for line in report.lines { print(line) }
            if report.lines.isEmpty { print("no stored sessions") }
        }
        if report.failure != nil { throw ExitCode(1) }
        if report.lost > 0 { throw ExitCode(2) }
    }
}
