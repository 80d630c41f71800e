import Foundation
import Logging
import Switchyard
import SwitchyardDefinitions
import SwitchyardSessions
import Synchronization

/// The apps a server serves: those it was started with (configured: Swift apps and `--app` definitions, reloaded on
/// SIGHUP) together with the versions published through the admin API into the store (``PublishedApps``), which
/// every node of a shared store serves alike.
///
/// Publishing, splitting and retiring are compare-and-set writes of the store's registry, made by one node; the
/// others see the registry's generation move at their next poll (``follow()``) and serve the same apps from then
/// on, without a restart. A node that cannot read a published definition (a newer format) logs why and serves the
/// rest.
final class AppReleases: Sendable {
    private struct State {
        var configured: [NavigationApp]
        var configuredRollouts: [AppRollout]
        /// The registry generation served now (0: nothing published, or not read yet).
        var generation = 0
        var published = PublishedApps()
        /// The apps made from published definitions, by version.
        var compiled: [AppVersion: NavigationApp] = [:]
    }

    private let sessions: SessionStore
    private let logger: Logger
    private let now: @Sendable () -> Double
    /// Called after the served apps changed (the catalogs are made again).
    private let changed: @Sendable () -> Void
    private let state: Mutex<State>

    init(
        configured: [NavigationApp], rollouts: [AppRollout], sessions: SessionStore, logger: Logger,
        now: @escaping @Sendable () -> Double, changed: @escaping @Sendable () -> Void
    ) {
        self.sessions = sessions
        self.logger = logger
        self.now = now
        self.changed = changed
        state = Mutex(State(configured: configured, configuredRollouts: rollouts))
    }

    /// The store's registry, if it keeps one.
    var registry: (any AppRegistryStore)? { sessions.archive.registry }

    /// Serves what the store's registry says when its generation moved since the last look; a store that fails is
    /// logged, and the apps stay as they are until the next look.
    func follow() {
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
    /// `checking` could not be served then (``SwitchyardSessions/AppReload``).
    func reload(configured apps: [NavigationApp], checking names: Set<String>) -> AppReload {
        state.withLock { state in
            let combined: ServedApps
            do {
                combined = try served(
                    configured: apps, rollouts: state.configuredRollouts, published: state.published,
                    compiled: state.compiled)
            } catch {
                return .refused(["\(error)"])
            }
            if let failure = AppCheckFailure(checking: combined.apps) {
                return .refused(failure.errors.map { "app '\($0.app)': \($0.diagnostic)" })
            }
            let outcome = sessions.reload(combined, checking: names)
            if outcome == .reloaded { state.configured = apps }
            return outcome
        }
    }

    // MARK: Admin changes

    /// What is served now, and how: for `GET /api/admin/apps`.
    func overview() -> (generation: Int, published: PublishedApps, served: ServedApps, configured: Set<AppVersion>) {
        let (generation, published, configured) = state.withLock {
            ($0.generation, $0.published, Set($0.configured.map(\.identity)))
        }
        return (generation, published, sessions.servedApps.apps, configured)
    }

    /// Publishes version `version` of `app` from its definition `text`: checked alone and with every served app, it
    /// is stored and served by every node from then on. New sessions do not get it until a rollout names it (the
    /// first version of a new app takes them at once). Publishing the same definition again changes nothing
    /// (`false`); another definition under a published number is refused.
    func publish(app: String, version: Int, text: String, format: DefinitionFormat) throws(ReleaseRefusal) -> Bool {
        let loaded = AppDefinition.load(text, format: format)
        guard let definition = loaded.definition else {
            throw .invalidDefinition(loaded.diagnostics.filter { $0.severity == .error })
        }
        guard definition.name == app, definition.version == version else {
            throw .invalid(
                "the definition is version \(definition.version) of '\(definition.name)', not version \(version) of "
                    + "'\(app)' as the path says")
        }
        let identity = AppVersion(name: app, version: version)
        var added = true
        try change { published, current, configured throws(ReleaseRefusal) in
            if configured.contains(identity) {
                throw .conflict("\(identity) is served from the nodes' configuration; publish the next version")
            }
            if published.isRetired(identity) {
                throw .conflict("\(identity) was retired, and version numbers are not used again")
            }
            if let existing = published.version(identity) {
                guard existing.definition == text, existing.format == format.rawValue else {
                    throw .conflict(
                        "\(identity) is published with another definition, and versions never change; publish it as "
                            + "version \((current.versions(of: app).last?.version ?? version) + 1)")
                }
                added = false
                return
            }
            // Until a rollout names it, it takes no new sessions: the rollout in force now is written down.
            if published.rollout(of: app) == nil, let rollout = current.rollout(of: app) {
                published.setRollout(
                    rollout.shares.map { PublishedApps.Share(version: $0.version, weight: $0.weight) }, of: app)
            }
            published.versions.append(
                PublishedApps.Version(
                    app: app, version: version, format: format.rawValue, definition: text, published: now()))
        }
        return added
    }

    /// Gives new sessions of `app` to `shares` (a split by weight; weight 0 pins a version). Sessions of a version
    /// it no longer lists migrate when next read, or stay pinned on theirs: none is lost.
    func setRollout(app: String, shares: [PublishedApps.Share]) throws(ReleaseRefusal) {
        try change { published, current, _ throws(ReleaseRefusal) in
            guard !current.versions(of: app).isEmpty else { throw .notFound("no app '\(app)' is served") }
            published.setRollout(shares, of: app)
        }
    }

    /// Retires published version `version` of `app`: its definition is no longer served. Refused while the rollout
    /// gives it new sessions, or while stored sessions run on it that no migration takes to a served version,
    /// unless `fallback` names a served version of the app for them to start over on. Returns the dry run of the
    /// app's stored sessions under the apps without it.
    func retire(app: String, version: Int, fallback: Int?) throws(ReleaseRefusal) -> MigrationReport {
        let identity = AppVersion(name: app, version: version)
        var report = MigrationReport()
        try change { published, current, configured throws(ReleaseRefusal) in
            if configured.contains(identity) {
                throw .conflict(
                    "\(identity) is served from the nodes' configuration, not published: take it out of their "
                        + "configuration instead")
            }
            guard published.version(identity) != nil else { throw .notFound("\(identity) is not published") }
            if let share = current.rollout(of: app)?.shares.first(where: { $0.version == version }), share.weight > 0 {
                throw .conflict(
                    "the rollout gives \(identity) new sessions; give them to another version first "
                        + "(PUT /api/admin/apps/\(app)/rollout)")
            }
            if let fallback {
                guard fallback != version, current.app(AppVersion(name: app, version: fallback)) != nil else {
                    throw .invalid("the fallback must be another served version of '\(app)'; \(app)@\(fallback) is not")
                }
            }
            published.versions.removeAll { $0.identity == identity }
            if let rollout = published.rollout(of: app) {
                published.setRollout(rollout.shares.filter { $0.version != version }, of: app)
            }
            published.retired.append(
                PublishedApps.Retired(app: app, version: version, fallback: fallback, retired: now()))
        } checking: { planned throws(ReleaseRefusal) in
            report = sessions.plannedStored(of: [app], under: planned)
            if report.failure != nil {  // logged by the session layer
                throw .store(sessions.health.failed(.unavailable("the dry run stopped"), during: "retire"))
            }
            if report.lost > 0 { throw .sessionsWouldBeLost(report) }
        }
        return report
    }

    /// Reads the registry, lets `edit` change what is published (seeing the apps served now and the configured
    /// versions), checks the apps that would then be served, lets `checking` look at them, stores the result if
    /// nothing else was stored meanwhile, and serves it.
    private func change(
        _ edit: (inout PublishedApps, ServedApps, Set<AppVersion>) throws(ReleaseRefusal) -> Void,
        checking: (ServedApps) throws(ReleaseRefusal) -> Void = { _ throws(ReleaseRefusal) in }
    ) throws(ReleaseRefusal) {
        guard let registry else { throw .noRegistry }
        let stored: StoredRegistry
        var published: PublishedApps
        do {
            stored = try registry.readRegistry()
            published = try PublishedApps(document: stored.document)
        } catch let error as ArchiveError {
            throw .store(sessions.health.failed(error, during: "read the published apps"))
        } catch {
            throw .store(sessions.health.failed(.unreadable("\(error)"), during: "read the published apps"))
        }
        apply(published, generation: stored.generation)  // the edit starts from what every node serves
        let (configured, rollouts, compiled) = state.withLock {
            ($0.configured, $0.configuredRollouts, $0.compiled)
        }
        let current = sessions.servedApps.apps
        let before = published
        try edit(&published, current, Set(configured.map(\.identity)))
        guard published != before else { return }
        let planned: ServedApps
        do {
            planned = try served(
                configured: configured, rollouts: rollouts, published: published,
                compiled: compile(published, reusing: compiled, strict: true))
        } catch let error as RolloutError {
            throw .invalidApps([error.description])
        } catch let error as ReleaseRefusal {
            throw error
        } catch {
            throw .invalidApps(["\(error)"])
        }
        if let failure = AppCheckFailure(checking: planned.apps) {
            throw .invalidApps(failure.errors.map { "app '\($0.app)': \($0.diagnostic)" })
        }
        try checking(planned)
        let document: [UInt8]
        do {
            document = try published.document()
        } catch {
            throw .invalidApps(["the published apps cannot be written: \(error)"])
        }
        do throws(ArchiveError) {
            try registry.storeRegistry(document, replacing: stored.generation)
        } catch .conflict {
            throw .changedMeanwhile
        } catch {
            throw .store(sessions.health.failed(error, during: "store the published apps"))
        }
        logger.notice(
            "published apps changed",
            metadata: [
                "generation": "\(stored.generation + 1)",
                "apps": "\(published.changedApps(comparedTo: before).sorted().joined(separator: ", "))",
            ])
        apply(published, generation: stored.generation + 1)
    }

    // MARK: Serving

    /// Serves `published` at `generation` (unless a later generation is served already).
    private func apply(_ published: PublishedApps, generation: Int) {
        state.withLock { state in
            guard generation > state.generation else { return }
            let compiled = (try? compile(published, reusing: state.compiled, strict: false)) ?? state.compiled
            let combined: ServedApps
            do {
                combined = try served(
                    configured: state.configured, rollouts: state.configuredRollouts, published: published,
                    compiled: compiled)
            } catch {
                logger.error(
                    "the published apps cannot be served together with this node's; serving them as they were",
                    metadata: ["generation": "\(generation)", "reason": "\(error)"])
                return
            }
            let names = published.changedApps(comparedTo: state.published)
            (state.generation, state.published, state.compiled) = (generation, published, compiled)
            sessions.serve(combined, changing: names)
            changed()
            if !names.isEmpty {
                logger.notice(
                    "serving the published apps",
                    metadata: ["generation": "\(generation)", "changed": "\(names.sorted().joined(separator: ", "))"])
            }
        }
    }

    /// The apps made from the published definitions (those made before are kept). `strict`: a definition that
    /// cannot be read throws; otherwise it is logged and left out.
    private func compile(
        _ published: PublishedApps, reusing made: [AppVersion: NavigationApp], strict: Bool
    ) throws(ReleaseRefusal) -> [AppVersion: NavigationApp] {
        var compiled: [AppVersion: NavigationApp] = [:]
        for version in published.versions {
            if let app = made[version.identity] {
                compiled[version.identity] = app
                continue
            }
            let format = DefinitionFormat(rawValue: version.format) ?? .json
            do {
                compiled[version.identity] = try NavigationApp(definition: version.definition, format: format)
            } catch {
                if strict { throw .invalidApps(["\(version.identity): \(error)"]) }
                logger.error(
                    "a published definition cannot be read by this node; it is not served here",
                    metadata: ["app": "\(version.identity)", "reason": "\(error)"])
            }
        }
        return compiled
    }

    /// The configured apps (first: the default app stays theirs) and the published ones; a published rollout
    /// takes the place of the configured one of its app.
    private func served(
        configured: [NavigationApp], rollouts: [AppRollout], published: PublishedApps,
        compiled: [AppVersion: NavigationApp]
    ) throws(RolloutError) -> ServedApps {
        let identities = Set(configured.map(\.identity))
        let added = published.versions.compactMap { compiled[$0.identity] }.filter { !identities.contains($0.identity) }
        let overridden = Set(published.rollouts.map(\.app))
        return try ServedApps(
            configured + added,
            rollouts: rollouts.filter { !overridden.contains($0.app) } + published.rollouts.map(\.rollout),
            fallbacks: published.fallbacks)
    }
}
