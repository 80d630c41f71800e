import Switchyard

/// The apps a server serves: every version of each, the rollout that says which version new sessions get, and where
/// a stored session of any version goes (``destination(of:)``).
package struct ServedApps: Sendable {
    /// Where a stored session of an app version goes.
    package indirect enum Destination {
        /// It runs on its own version: one the rollout gives new sessions (`pinned` nil), or a pinned one (why: the
        /// rollout pins it at weight 0, or no migration leads on from it).
        case stay(NavigationApp, pinned: String?)
        /// It migrates to the first of `targets` (latest first) whose migration takes it; when none does, it goes
        /// where `otherwise` says: its own version (`stay`), a retired version's fallback (`restart`), or `gone`.
        case migrate(targets: [NavigationApp], otherwise: Destination)
        /// Its version was retired naming `app` (a version of the same app) as the fallback, and no migration takes
        /// it: it starts over on `app`, at its initial screens, keeping its id and history; why.
        case restart(NavigationApp, reason: String)
        /// Its version is not served and no migration leads from it: why.
        case gone(String)
    }

    /// Every served app version, in the order given (the first app's name is the default).
    package let apps: [NavigationApp]
    /// The rollouts given, by app name (an app without one gives new sessions its latest version).
    package let rollouts: [String: AppRollout]
    /// Retired versions and the version of the same app each one's sessions start over on when no migration takes
    /// them.
    package let fallbacks: [AppVersion: Int]

    /// Serves `apps`, each app's latest version taking its new sessions.
    package init(_ apps: [NavigationApp]) {
        self.apps = apps
        rollouts = [:]
        fallbacks = [:]
    }

    /// Serves `apps` (several versions of one app are served together) with `rollouts`, sending the sessions of the
    /// retired versions in `fallbacks` that no migration takes to their fallback; throws when a rollout names an app
    /// or version that is not served, or two rollouts name one app.
    package init(
        _ apps: [NavigationApp], rollouts: [AppRollout] = [], fallbacks: [AppVersion: Int] = [:]
    ) throws(RolloutError) {
        var byName: [String: AppRollout] = [:]
        for rollout in rollouts {
            guard byName[rollout.app] == nil else { throw RolloutError("two rollouts name the app '\(rollout.app)'") }
            try rollout.check()
            let served = apps.filter { $0.name == rollout.app }.map(\.version)
            guard !served.isEmpty else { throw RolloutError("the rollout \(rollout) names an app that is not served") }
            for share in rollout.shares where !served.contains(share.version) {
                throw RolloutError(
                    "the rollout \(rollout) names version \(share.version) of '\(rollout.app)', which is not served "
                        + "(served: \(served.sorted().map(String.init).joined(separator: ", ")))")
            }
            byName[rollout.app] = rollout
        }
        self.apps = apps
        self.rollouts = byName
        self.fallbacks = fallbacks
    }

    /// The app names, each once, in the order given.
    package var names: [String] {
        var seen: Set<String> = []
        return apps.map(\.name).filter { seen.insert($0).inserted }
    }

    /// The served version `identity`, if it is served.
    package func app(_ identity: AppVersion) -> NavigationApp? {
        apps.first { $0.name == identity.name && $0.version == identity.version }
    }

    /// Every served version of the app `name`, oldest first.
    package func versions(of name: String) -> [NavigationApp] {
        apps.filter { $0.name == name }.sorted { $0.version < $1.version }
    }

    /// The rollout of the app `name`: the one given, or its latest version for every new session.
    package func rollout(of name: String) -> AppRollout? {
        if let given = rollouts[name] { return given }
        guard let latest = versions(of: name).last else { return nil }
        return AppRollout(app: name, shares: [AppRollout.Share(version: latest.version, weight: 100)])
    }

    /// The version of app `name` (nil: the default app) a new session gets, for `pick` drawn in `0..<1`; nil when no
    /// app has that name.
    package func forNewSession(_ name: String?, pick: Double) -> NavigationApp? {
        guard let name = name ?? apps.first?.name, let rollout = rollout(of: name) else { return nil }
        return app(AppVersion(name: name, version: rollout.version(for: pick)))
    }

    /// The version of app `name` that takes most new sessions (the latest of equals): what its catalog describes.
    package func current(_ name: String) -> NavigationApp? {
        guard let rollout = rollout(of: name) else { return nil }
        let top = rollout.shares.max { ($0.weight, $0.version) < ($1.weight, $1.version) }
        return top.flatMap { app(AppVersion(name: name, version: $0.version)) }
    }

    /// Where a stored session of `identity` goes: it stays on a version the rollout lists; otherwise it migrates to
    /// the latest version taking new sessions that a migration leads to; with none (or when none takes it), it stays
    /// pinned to its own version if that is served, starts over on its retired version's fallback if one was named,
    /// and is gone if not.
    package func destination(of identity: AppVersion) -> Destination {
        let own = app(identity)
        let rollout = rollout(of: identity.name)
        if let own, let share = rollout?.shares.first(where: { $0.version == identity.version }) {
            return .stay(own, pinned: share.weight == 0 ? "the rollout pins version \(identity.version)" : nil)
        }
        let versions = versions(of: identity.name)
        let targets = (rollout?.shares ?? []).filter { $0.weight > 0 }.map(\.version).sorted(by: >).compactMap {
            version in
            versions.first { $0.version == version }
        }.filter { $0.migrationPath(from: identity.version, through: versions) != nil }
        let otherwise: Destination
        if let own {
            otherwise = .stay(
                own, pinned: "no migration leads from version \(identity.version) to a version taking new sessions")
        } else if let app = fallback(of: identity) {
            otherwise = .restart(
                app,
                reason: "version \(identity.version) was retired; its sessions start over on version \(app.version)")
        } else if versions.isEmpty {
            otherwise = .gone("the app '\(identity.name)' is not served any more")
        } else {
            otherwise = .gone(
                "version \(identity.version) of '\(identity.name)' is not served, and no migration leads from it to a "
                    + "served version (\(versions.map { "\($0.version)" }.joined(separator: ", ")))")
        }
        return targets.isEmpty ? otherwise : .migrate(targets: targets, otherwise: otherwise)
    }

    /// The served version the sessions of retired version `identity` start over on: its fallback, or when that was
    /// retired too, the fallback's, and so on; nil when the chain reaches no served version.
    private func fallback(of identity: AppVersion) -> NavigationApp? {
        var next = fallbacks[identity]
        var seen: Set<Int> = [identity.version]
        while let version = next, seen.insert(version).inserted {
            let step = AppVersion(name: identity.name, version: version)
            if let app = app(step) { return app }
            next = fallbacks[step]
        }
        return nil
    }
}
