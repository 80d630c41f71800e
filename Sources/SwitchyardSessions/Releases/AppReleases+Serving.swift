import Switchyard

/// What a node serves of the configured and the published apps: the two lists merged, a published version this node
/// cannot serve (or also has configured) logged and left out.
extension AppReleases {
    /// Serves `published` at `generation` (unless a later generation is served already): what this node can of it.
    func apply(_ published: PublishedApps, generation: Int) {
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

    /// The apps made from the published definitions by the ``AppCompiler`` (those made before are kept). `strict`:
    /// a definition that cannot be read throws; otherwise it is logged and left out.
    func compile(
        _ published: PublishedApps, reusing made: [AppVersion: NavigationApp], strict: Bool
    ) throws(ReleaseRefusal) -> [AppVersion: NavigationApp] {
        var compiled: [AppVersion: NavigationApp] = [:]
        for version in published.versions {
            if let app = made[version.identity] {
                compiled[version.identity] = app
                continue
            }
            do {
                compiled[version.identity] = try compiler.app(from: version.definition, format: version.format)
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
    static func apps(
        configured: [NavigationApp], published: PublishedApps, compiled: [AppVersion: NavigationApp]
    ) -> [NavigationApp] {
        let identities = Set(configured.map(\.identity))
        return configured
            + published.versions.compactMap { compiled[$0.identity] }.filter { !identities.contains($0.identity) }
    }

    /// The configured apps (first: the default app stays theirs) and what this node can serve of the published
    /// ones: a published version it also has configured is its configured one; a published rollout takes the place
    /// of the configured one of its app, without the versions this node lacks (none listed: the configured one).
    func served(
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
