import ArgumentParser
import Foundation
import Logging
import Switchyard
import SwitchyardDefinitions
import SwitchyardServer

extension ServeCommand {
    /// Resolves the options (``Settings``), checks the apps and the page folder, opens the store and serves until
    /// SIGTERM/SIGINT; SIGHUP reads the app definitions again.
    mutating func run() throws {
        // Until the reload is ready to answer it (after the start), a SIGHUP changes nothing rather than stopping us.
        signal(SIGHUP, SIG_IGN)
        let settings = try Settings(command: self, environment: ProcessInfo.processInfo.environment)
        let logger = settings.makeLogger()
        let program = CommandLineProgram.current
        // The apps are checked before anything is opened: declarations that cannot work stop the start.
        let (apps, definitions) = try settings.checkedApps(of: program, logger: logger)
        for file in definitions.files {
            logger.info(
                "\(file.path): serving the app '\(file.app?.name ?? "")' at version \(file.app?.version ?? 1)")
        }
        // Before the store is opened, so that a wrong flag leaves no data folder behind.
        guard PageFolder.isFolder(settings.publicFolder) else {
            throw ValidationError(PageFolder.missing(settings.publicFolder, chosen: settings.publicFolderIsChosen))
        }
        var configuration = settings.serverConfiguration(apps: apps)
        let archive = try settings.openedStore(logger: logger)
        defer { archive.close() }
        configuration.archive = archive
        let server: NavigationServer
        do {
            server = try NavigationServer(
                configuration: configuration, transport: settings.httpConfiguration, page: settings.publicFolder,
                logger: logger)
        } catch {
            // The apps, rollouts and token were checked above, the folder too: what is left says itself.
            throw ValidationError("\(error)")
        }
        try serve(server, settings: settings, apps: apps, definitions: definitions, logger: logger)
    }

    /// Starts `server`, says where it serves, and waits for a signal to stop, reloading the definitions on SIGHUP.
    private func serve(
        _ server: NavigationServer, settings: Settings, apps: [NavigationApp], definitions: DefinitionFiles,
        logger: Logger
    ) throws {
        let program = CommandLineProgram.current
        do {
            try server.start()
        } catch {
            logger.critical("\(error)")
            throw ExitCode(1)
        }
        // The first app is the default: a session created without `app` gets it.
        let served = apps.enumerated().map {
            $0.offset == 0 ? "\($0.element.identity) (default)" : "\($0.element.identity)"
        }
        logger.info(
            "\(program.name) \(program.version) serving \(served.joined(separator: ", ")) on http://\(settings.displayHost):\(server.port)",
            metadata: settings.metadata(port: server.port))
        // Written unbuffered: print() is block-buffered when stdout is not a terminal (containers, CI logs).
        let hint = "Open http://\(settings.displayHost):\(server.port) in a browser (Ctrl-C stops).\n"
        FileHandle.standardOutput.write(Data(hint.utf8))
        let reloader = DefinitionReloader(
            paths: settings.appPaths, served: definitions.apps, builtIn: settings.builtInApps(of: program),
            defaultApp: settings.defaultApp, server: server, logger: logger)
        let hangUp = reloader.watchHangUp()
        defer { hangUp.cancel() }
        if !server.waitForTermination() { throw ExitCode(1) }
        logger.info("stopped", metadata: ["store": "\(settings.storeDescription)"])
    }
}
