import Dispatch
import Foundation
import Logging
import Switchyard
import SwitchyardDefinitions
import SwitchyardServer
import SwitchyardSessions
import Synchronization

/// `serve`'s reload: on SIGHUP the app definitions are read again from the paths `serve` was given. New sessions get
/// the new definitions and every session running goes on; a reload is refused, and the apps stay as they were, when
/// a definition has an error, two apps share a name, or a stored session of a definition's app (old or new name)
/// could not be restored under the new definitions — each such session is logged with the reason.
final class DefinitionReloader: Sendable {
    private let paths: [String]
    private let builtIn: [NavigationApp]
    private let server: NavigationServer
    private let logger: Logger
    /// The names of the definitions' apps served now.
    private let served: Mutex<Set<String>>

    /// The default app, served first (`--default-app`); nil: the first app.
    private let defaultApp: String?

    init(
        paths: [String], served: [NavigationApp], builtIn: [NavigationApp], defaultApp: String?,
        server: NavigationServer, logger: Logger
    ) {
        self.defaultApp = defaultApp
        self.paths = paths
        self.builtIn = builtIn
        self.server = server
        self.logger = logger
        self.served = Mutex(Set(served.map(\.name)))
    }

    /// Reads the definitions again and serves them, or says why not; returns what happened.
    @discardableResult
    func reload() -> AppReload {
        let definitions = DefinitionFiles(paths: paths)
        for line in definitions.skippedLines { logger.notice("\(line)") }
        var refusals = definitions.lines.filter { $0.severity == .error }.map(\.text)
        for (severity, line) in definitions.lines where severity == .warning { logger.warning("\(line)") }
        let apps = Settings.served(definitions.apps + builtIn, defaultApp: defaultApp)
        refusals += NavigationApp.checkNames(apps).map { "app '\($0.app)': \($0.diagnostic)" }
        if let defaultApp, !apps.contains(where: { $0.name == defaultApp }) {
            refusals.append("--default-app '\(defaultApp)' would no longer be served")
        }
        let outcome: AppReload
        if refusals.isEmpty {
            let changed = served.withLock { $0 }.union(definitions.apps.map(\.name))
            outcome = server.api.reload(apps: apps, checking: changed)
        } else {
            outcome = .refused(refusals)
        }
        switch outcome {
        case .reloaded:
            served.withLock { $0 = Set(definitions.apps.map(\.name)) }
            logger.notice(
                "reloaded the app definitions: new sessions get them, and sessions running from their next request",
                metadata: ["apps": "\(apps.map(\.name).joined(separator: ", "))"])
        case .refused(let lines):
            for line in lines { logger.error("reload refused: \(line)") }
            logger.error("reload refused: still serving the app definitions as they were")
        }
        return outcome
    }

    /// Reloads on each SIGHUP until the returned source is cancelled.
    func watchHangUp() -> any DispatchSourceSignal {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "switchyard.reload"))
        source.setEventHandler { [self] in reload() }
        source.resume()
        return source
    }
}
