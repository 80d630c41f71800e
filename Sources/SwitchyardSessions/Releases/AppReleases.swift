import Logging
import Switchyard
import Synchronization

/// The apps a server serves: those it was started with (configured: Swift apps and `--app` definitions, reloaded on
/// SIGHUP) together with the versions published through the admin API into the store (``PublishedApps``), which
/// every node of a shared store serves alike.
///
/// Publishing, splitting and retiring are compare-and-set writes of the store's registry, made by one node; the
/// others see the registry's generation move at their next poll (``follow()``) and serve the same apps from then
/// on, without a restart. A node that cannot serve part of what was published (a definition in a newer format, a
/// version also in its own configuration) logs why, serves the rest and goes on following. Published definitions
/// are made into apps by the ``AppCompiler`` the server passes in.
package final class AppReleases: Sendable {
    struct State {
        var configured: [NavigationApp]
        var configuredRollouts: [AppRollout]
        /// The registry generation served now (0: nothing published, or not read yet).
        var generation = 0
        var published = PublishedApps()
        /// The apps made from published definitions, by version.
        var compiled: [AppVersion: NavigationApp] = [:]
    }

    /// The most bytes the published apps' document may take (every published definition is in it).
    static let maxDocumentBytes = 16 << 20

    let sessions: LiveSessions
    let compiler: AppCompiler
    let logger: Logger
    let now: @Sendable () -> Double
    /// How long after a rollout changed a version it took new sessions from may be retired (other nodes follow
    /// the change at their next poll); 0 with one node.
    let settle: Double
    /// Called after the served apps changed (the catalogs are made again).
    let changed: @Sendable () -> Void
    let state: Mutex<State>

    /// The configured apps and rollouts of `sessions`, with what its store's registry publishes (made into apps by
    /// `compiler`) once followed. `settle`: see ``retire(app:version:fallback:expecting:by:)``; `changed` is called
    /// after the served apps changed.
    package init(
        configured: [NavigationApp], rollouts: [AppRollout], sessions: LiveSessions, compiler: AppCompiler,
        settle: Double, logger: Logger, now: @escaping @Sendable () -> Double,
        changed: @escaping @Sendable () -> Void
    ) {
        self.sessions = sessions
        self.compiler = compiler
        self.logger = logger
        self.now = now
        self.settle = settle
        self.changed = changed
        state = Mutex(State(configured: configured, configuredRollouts: rollouts))
    }

    /// The store's registry, if it keeps one.
    var registry: (any AppRegistryStore)? { sessions.archive.registry }

    /// The generation of the published apps served now.
    package var generation: Int { state.withLock { $0.generation } }

    /// Serves what the store's registry says when its generation moved since the last look; a store that fails is
    /// logged, and the apps stay as they are until the next look.
    package func follow() {
        guard let registry else { return }
        do {
            let generation = try registry.registryGeneration()
            guard generation != state.withLock({ $0.generation }) else { return }
            let stored = try registry.readRegistry()
            apply(try PublishedApps(document: stored.document), generation: stored.generation)
        } catch let error as ArchiveError {
            logger.warning(
                "the published apps could not be read; serving them as they were",
                metadata: ["reason": "\(error)"])
        } catch {
            logger.error(
                "the published apps' document cannot be read; serving them as they were",
                metadata: ["reason": "\(error)"])
        }
    }

    /// Serves `configured` in place of the configured apps (a SIGHUP reload), unless a stored session of an app in
    /// `checking` could not be served then (``AppReload``), or one of them is a published version.
    package func reload(configured apps: [NavigationApp], checking names: Set<String>) -> AppReload {
        state.withLock { state in
            let clashes = apps.filter { state.published.version($0.identity) != nil }.map(\.identity)
            guard clashes.isEmpty else {
                return .refused(
                    clashes.map {
                        "\($0) is published through the admin API: configure another version, or retire that one"
                    })
            }
            let combined = served(
                configured: apps, rollouts: state.configuredRollouts, published: state.published,
                compiled: state.compiled)
            let kept = Set(combined.rollouts.values.map(\.app))
            let dropped = state.configuredRollouts.filter { !kept.contains($0.app) }
            guard dropped.isEmpty else {
                return .refused(dropped.map { "the rollout \($0) names a version the reloaded apps do not serve" })
            }
            let errors = Self.errors(checking: combined.apps)
            if !errors.isEmpty { return .refused(errors) }
            let outcome = sessions.reload(combined, checking: names)
            if outcome == .reloaded { state.configured = apps }
            return outcome
        }
    }

    /// What is served now, and how: for `GET /api/admin/apps`.
    package func overview() -> ReleaseOverview {
        let (generation, published, configured) = state.withLock {
            ($0.generation, $0.published, Set($0.configured.map(\.identity)))
        }
        return ReleaseOverview(
            generation: generation, published: published, served: sessions.servedApps.apps, configured: configured)
    }

    /// The published version `identity` (nil for a configured version: its definition is the node's).
    package func published(_ identity: AppVersion) -> PublishedApps.Version? {
        state.withLock { $0.published.version(identity) }
    }

    /// The errors `apps` have together (``Switchyard/NavigationApp/check(_:)``), one a line: `app 'shop': …`.
    static func errors(checking apps: [NavigationApp]) -> [String] {
        NavigationApp.check(apps).filter { $0.diagnostic.severity == .error }.map {
            "app '\($0.app)': \($0.diagnostic)"
        }
    }
}
