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
/// on, without a restart. A node that cannot serve part of what was published (a definition in a newer format, a
/// version also in its own configuration) logs why, serves the rest and goes on following.
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

    /// The most bytes the published apps' document may take (every published definition is in it).
    static let maxDocumentBytes = 16 << 20

    private let sessions: SessionStore
    private let logger: Logger
    private let now: @Sendable () -> Double
    /// How long after a rollout changed a version it took new sessions from may be retired (other nodes follow
    /// the change at their next poll); 0 with one node.
    private let settle: Double
    /// Called after the served apps changed (the catalogs are made again).
    private let changed: @Sendable () -> Void
    private let state: Mutex<State>

    init(
        configured: [NavigationApp], rollouts: [AppRollout], sessions: SessionStore, settle: Double, logger: Logger,
        now: @escaping @Sendable () -> Double, changed: @escaping @Sendable () -> Void
    ) {
        self.sessions = sessions
        self.logger = logger
        self.now = now
        self.settle = settle
        self.changed = changed
        state = Mutex(State(configured: configured, configuredRollouts: rollouts))
    }

    /// The store's registry, if it keeps one.
    var registry: (any AppRegistryStore)? { sessions.archive.registry }

    /// The generation of the published apps served now.
    var generation: Int { state.withLock { $0.generation } }

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
    /// `checking` could not be served then (``SwitchyardSessions/AppReload``), or one of them is a published version.
    func reload(configured apps: [NavigationApp], checking names: Set<String>) -> AppReload {
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
    func publish(
        app: String, version: Int, text: String, format: DefinitionFormat, expecting generation: Int?,
        by requester: String
    ) throws(ReleaseRefusal) -> Bool {
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
        try change("publish \(identity)", expecting: generation, by: requester) {
            published, current, configured throws(ReleaseRefusal) in
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
                    rollout.shares.map { PublishedApps.Share(version: $0.version, weight: $0.weight) }, of: app,
                    at: nil)
            }
            published.versions.append(
                PublishedApps.Version(
                    app: app, version: version, format: format.rawValue, definition: text, published: now()))
        }
        return added
    }

    /// Gives new sessions of `app` to `shares` (a split by weight; weight 0 pins a version); nil gives the app back
    /// to the rollout of the nodes' configuration (or its latest version). Sessions of a version it no longer lists
    /// migrate when next read, or stay pinned on theirs: none is lost.
    func setRollout(
        app: String, shares: [PublishedApps.Share]?, expecting generation: Int?, by requester: String
    ) throws(ReleaseRefusal) {
        if let shares {
            do {
                try PublishedApps.Rollout(app: app, shares: shares).rollout.check()
            } catch {
                throw .invalid(error.description)
            }
        }
        try change("set the rollout of '\(app)'", expecting: generation, by: requester) {
            published, current, _ throws(ReleaseRefusal) in
            guard !current.versions(of: app).isEmpty else { throw .notFound("no app '\(app)' is served") }
            if shares == nil, published.rollout(of: app) == nil { throw .notFound("'\(app)' has no published rollout") }
            published.setRollout(shares, of: app, at: now())
        }
    }

    /// Retires published version `version` of `app`: its definition is no longer served. Refused while the rollout
    /// gives it new sessions (or gave them until moments ago), or while stored sessions that are served now would
    /// be lost without it (its own, or older ones a migration through it took on), unless `fallback` names a served
    /// version of the app for them to start over on. Returns the dry run of the app's stored sessions under the apps
    /// without it.
    func retire(
        app: String, version: Int, fallback: Int?, expecting generation: Int?, by requester: String
    ) throws(ReleaseRefusal) -> MigrationReport {
        let identity = AppVersion(name: app, version: version)
        var report = MigrationReport()
        try change("retire \(identity)", expecting: generation, by: requester) {
            published, current, configured throws(ReleaseRefusal) in
            if configured.contains(identity) {
                throw .conflict(
                    "\(identity) is served from the nodes' configuration, not published: take it out of their "
                        + "configuration instead")
            }
            guard published.version(identity) != nil else { throw .notFound("\(identity) is not published") }
            if current.rollout(of: app)?.shares.contains(where: { $0.version == version && $0.weight > 0 }) == true {
                throw .conflict(
                    "the rollout gives \(identity) new sessions; give them to another version first "
                        + "(PUT /api/admin/apps/\(app)/rollout)")
            }
            if let changed = published.rolloutChanges?[app], now() - changed < settle {
                throw .rolloutSettling(seconds: Int((settle - (now() - changed)).rounded(.up)))
            }
            if let fallback {
                guard fallback != version, current.app(AppVersion(name: app, version: fallback)) != nil else {
                    throw .invalid("the fallback must be another served version of '\(app)'; \(app)@\(fallback) is not")
                }
            }
            published.versions.removeAll { $0.identity == identity }
            published.rollouts = published.rollouts.map { rollout in  // a pinned version leaves its rollout
                var kept = rollout
                if rollout.app == app { kept.shares.removeAll { $0.version == version } }
                return kept
            }
            published.retired.append(
                PublishedApps.Retired(app: app, version: version, fallback: fallback, retired: now()))
        } checking: { current, planned throws(ReleaseRefusal) in
            let before = sessions.plannedStored(of: [app], under: current)
            report = sessions.plannedStored(of: [app], under: planned)
            if before.failure != nil || report.failure != nil {  // logged by the session layer
                throw .store(sessions.health.failed(.unavailable("the dry run stopped"), during: "retire"))
            }
            let lost = report.lost(beyond: before)
            if lost > 0 { throw .sessionsWouldBeLost(report, count: lost) }
        }
        return report
    }

    /// Reads the registry, lets `edit` change what is published (seeing the apps served now and the configured
    /// versions), checks the apps that would then be served, lets `checking` compare them with those served now,
    /// stores the result if nothing else was stored meanwhile (and the generation is `expected`, when given), and
    /// serves it. `what` and `requester` are logged.
    private func change(
        _ what: String, expecting expected: Int?, by requester: String,
        _ edit: (inout PublishedApps, ServedApps, Set<AppVersion>) throws(ReleaseRefusal) -> Void,
        checking: (ServedApps, ServedApps) throws(ReleaseRefusal) -> Void = { _, _ throws(ReleaseRefusal) in }
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
        if let expected, expected != stored.generation { throw .staleGeneration(current: stored.generation) }
        apply(published, generation: stored.generation)  // the edit starts from what every node serves
        let (configured, rollouts, compiled) = state.withLock {
            ($0.configured, $0.configuredRollouts, $0.compiled)
        }
        let current = sessions.servedApps.apps
        let before = published
        try edit(&published, current, Set(configured.map(\.identity)))
        guard published != before else { return }
        let made = try compile(published, reusing: compiled, strict: true)
        let planned: ServedApps
        do {
            let publishedRollouts = published.rollouts.map(\.rollout)
            planned = try ServedApps(
                Self.apps(configured: configured, published: published, compiled: made),
                rollouts: rollouts.filter { rollout in !publishedRollouts.contains { $0.app == rollout.app } }
                    + publishedRollouts,
                fallbacks: published.fallbacks)
        } catch {
            throw .invalidApps([error.description])
        }
        if let failure = AppCheckFailure(checking: planned.apps) {
            throw .invalidApps(failure.errors.map { "app '\($0.app)': \($0.diagnostic)" })
        }
        try checking(current, planned)
        let document: [UInt8]
        do {
            document = try published.document()
        } catch {
            throw .invalidApps(["the published apps cannot be written: \(error)"])
        }
        guard document.count <= Self.maxDocumentBytes else {
            throw .conflict(
                "the published apps would take \(document.count) bytes, more than \(Self.maxDocumentBytes): retire "
                    + "versions no session needs first")
        }
        do throws(ArchiveError) {
            try registry.storeRegistry(document, replacing: stored.generation)
        } catch .conflict {
            throw .changedMeanwhile
        } catch {
            throw .store(sessions.health.failed(error, during: "store the published apps"))
        }
        logger.notice(
            "published apps changed: \(what)",
            metadata: ["generation": "\(stored.generation + 1)", "by": "\(requester)"])
        apply(published, generation: stored.generation + 1)
    }

    // MARK: Serving

    /// Serves `published` at `generation` (unless a later generation is served already): what this node can of it.
    private func apply(_ published: PublishedApps, generation: Int) {
        state.withLock { state in
            guard generation > state.generation else { return }
            let compiled = (try? compile(published, reusing: state.compiled, strict: false)) ?? state.compiled
            for version in published.versions
            where state.configured.contains(where: { $0.identity == version.identity }) {
                logger.error(
                    "a published version is configured on this node too; this node serves its configured one",
                    metadata: ["app": "\(version.identity)"])
            }
            let old = sessions.servedApps.apps
            let new = served(
                configured: state.configured, rollouts: state.configuredRollouts, published: published,
                compiled: compiled)
            (state.generation, state.published, state.compiled) = (generation, published, compiled)
            let names = Set(old.names + new.names).filter { name in
                old.rollout(of: name) != new.rollout(of: name)
                    || old.fallbacks.filter { $0.key.name == name } != new.fallbacks.filter { $0.key.name == name }
                    || old.versions(of: name).contains { new.app($0.identity) == nil }
            }
            sessions.serve(new, changing: names)
            changed()
            logger.notice(
                "serving the published apps",
                metadata: ["generation": "\(generation)", "changed": "\(names.sorted().joined(separator: ", "))"])
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

    /// The configured apps (first: the default app stays theirs), then the published ones made from their
    /// definitions; a published version also configured is the configured one.
    private static func apps(
        configured: [NavigationApp], published: PublishedApps, compiled: [AppVersion: NavigationApp]
    ) -> [NavigationApp] {
        let identities = Set(configured.map(\.identity))
        return configured
            + published.versions.compactMap { compiled[$0.identity] }.filter { !identities.contains($0.identity) }
    }

    /// The configured apps (first: the default app stays theirs) and what this node can serve of the published
    /// ones: a published version it also has configured is its configured one; a published rollout takes the place
    /// of the configured one of its app, without the versions this node lacks (none listed: the configured one).
    private func served(
        configured: [NavigationApp], rollouts: [AppRollout], published: PublishedApps,
        compiled: [AppVersion: NavigationApp]
    ) -> ServedApps {
        let apps = Self.apps(configured: configured, published: published, compiled: compiled)
        let servedIdentities = Set(apps.map(\.identity))
        var byApp: [String: AppRollout] = [:]
        for rollout in rollouts {
            if rollout.shares.allSatisfy({
                servedIdentities.contains(AppVersion(name: rollout.app, version: $0.version))
            }) {
                byApp[rollout.app] = rollout
            } else {
                logger.error(
                    "a configured rollout names a version this node does not serve; the app goes without it",
                    metadata: ["rollout": "\(rollout)"])
            }
        }
        for rollout in published.rollouts {
            let shares = rollout.shares.filter {
                servedIdentities.contains(AppVersion(name: rollout.app, version: $0.version))
            }
            if shares.contains(where: { $0.weight > 0 }), shares.count == Set(shares.map(\.version)).count {
                byApp[rollout.app] = PublishedApps.Rollout(app: rollout.app, shares: shares).rollout
            } else {
                logger.error(
                    "a published rollout names no version this node serves; it keeps its own rollout of the app",
                    metadata: ["app": "\(rollout.app)"])
            }
        }
        do {
            return try ServedApps(apps, rollouts: Array(byApp.values), fallbacks: published.fallbacks)
        } catch {
            logger.error(
                "the configured rollouts cannot be served with the published apps; serving them without rollouts",
                metadata: ["reason": "\(error)"])
            return (try? ServedApps(apps, rollouts: [], fallbacks: published.fallbacks)) ?? ServedApps(apps)
        }
    }
}
