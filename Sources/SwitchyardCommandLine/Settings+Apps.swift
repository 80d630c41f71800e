import ArgumentParser
import Foundation
import Logging
import Switchyard
import SwitchyardDefinitions
import SwitchyardServer
import SwitchyardSessions

/// What `serve`, `migrate` and `stats` do before they touch sessions: read and check the apps, and open the store.
extension Settings {
    /// The apps to serve: the `--app` definitions (checked as they are read, the engine's findings included; a file
    /// of a folder that is not an app definition is left out, named in a notice), then
    /// the apps built into `program` unless `--demo off`, checked, every name and version against every other, and
    /// the rollouts against them; the `--default-app` first. Every finding is logged, one line each; an error
    /// exits 1.
    func checkedApps(
        of program: CommandLineProgram, logger: Logger
    ) throws -> (apps: [NavigationApp], definitions: DefinitionFiles) {
        let definitions = DefinitionFiles(paths: appPaths)
        for line in definitions.skippedLines { logger.notice("\(line)") }
        var lines = definitions.lines
        let builtIn = builtInApps(of: program)
        let apps = Self.served(definitions.apps + builtIn, defaultApp: defaultApp)
        let findings =
            NavigationApp.check(builtIn).filter { $0.diagnostic.code != "duplicateApp" }
            + NavigationApp.checkNames(apps)
        for (app, finding) in findings {
            lines.append((finding.severity == .error ? .error : .warning, "app '\(app)': \(finding)"))
        }
        if apps.isEmpty {
            lines.append(
                (.error, "nothing to serve: --demo off leaves out the apps built in, and no --app gave an app"))
        }
        if let defaultApp, !apps.isEmpty, !apps.contains(where: { $0.name == defaultApp }) {
            let names = Array(Set(apps.map(\.name))).sorted().joined(separator: ", ")
            lines.append((.error, "--default-app '\(defaultApp)' is not served (served: \(names))"))
        }
        do {
            _ = try ServedApps(apps, rollouts: rollouts)
        } catch {
            lines.append((.error, "\(error)"))
        }
        for (severity, line) in lines {
            switch severity {
            case .error: logger.critical("\(line)")
            case .warning: logger.warning("\(line)")
            }
        }
        if lines.contains(where: { $0.severity == .error }) { throw ExitCode(1) }
        return (apps, definitions)
    }

    /// The apps built into `program`, unless `--demo off` leaves them out.
    func builtInApps(of program: CommandLineProgram) -> [NavigationApp] {
        servesBuiltInApps ? program.apps : []
    }

    /// `apps` in the order they are served: every version of `defaultApp` first (the first app served is the one a
    /// session created without `app` gets), the order otherwise as given.
    static func served(_ apps: [NavigationApp], defaultApp: String?) -> [NavigationApp] {
        guard let defaultApp else { return apps }
        return apps.filter { $0.name == defaultApp } + apps.filter { $0.name != defaultApp }
    }

    /// The API `serve` would make of these settings' apps, rollouts and store, for a command that reads or changes
    /// the stored sessions without serving them (`migrate`, `stats`); the caller closes `store` when done.
    func offlineAPI(
        of program: CommandLineProgram, logger: Logger
    ) throws -> (api: SwitchyardAPI, store: any SessionArchive) {
        let (apps, _) = try checkedApps(of: program, logger: logger)
        let store = try openedStore(logger: logger)
        var configuration = ServerConfiguration(apps: apps)
        configuration.archive = store
        configuration.rollouts = rollouts
        return (SwitchyardAPI(configuration: configuration, logger: logger), store)
    }

    /// The configured store, opened; one that cannot be is logged in one readable line and exits 1 (nothing is read
    /// from or served by a store that cannot be trusted).
    func openedStore(logger: Logger) throws -> any SessionArchive {
        do {
            return try openStore()
        } catch {
            logger.critical("\(error)")
            throw ExitCode(1)
        }
    }
}
