import Switchyard

/// The admin changes of what is published: each a compare-and-set write of the store's registry
/// (``AppReleases/change(_:expecting:by:adding:_:checking:)``).
extension AppReleases {
    /// Publishes version `version` of `app` from its definition `text` (in `format`, `json` or `yaml`): checked
    /// alone and with every served app, it is stored and served by every node from then on. New sessions do not get
    /// it until a rollout names it (the first version of a new app takes them at once). Publishing the same
    /// definition again changes nothing (`false`); another definition under a published number is refused.
    package func publish(
        app: String, version: Int, text: String, format: String, expecting generation: Int?, by requester: String
    ) throws(ReleaseRefusal) -> Bool {
        let made: NavigationApp
        do {
            made = try compiler.app(from: text, format: format)
        } catch {
            throw .invalidDefinition(error.findings.filter { $0.severity == .error })
        }
        guard made.name == app, made.version == version else {
            throw .invalid(
                "the definition is version \(made.version) of '\(made.name)', not version \(version) of "
                    + "'\(app)' as the path says")
        }
        let identity = made.identity
        var added = true
        try change("publish \(identity)", expecting: generation, by: requester, adding: [identity: made]) {
            published, current, configured throws(ReleaseRefusal) in
            if configured.contains(identity) {
                throw .conflict("\(identity) is served from the nodes' configuration; publish the next version")
            }
            if published.isRetired(identity) {
                throw .conflict("\(identity) was retired, and version numbers are not used again")
            }
            if let existing = published.version(identity) {
                guard existing.definition == text, existing.format == format else {
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
                PublishedApps.Version(app: app, version: version, format: format, definition: text, published: now()))
        }
        return added
    }

    /// Gives new sessions of `app` to `shares` (a split by weight; weight 0 pins a version); nil gives the app back
    /// to the rollout of the nodes' configuration (or its latest version). Sessions of a version it no longer lists
    /// migrate when next read, or stay pinned on theirs: none is lost.
    package func setRollout(
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
    package func retire(
        app: String, version: Int, fallback: Int?, expecting generation: Int?, by requester: String
    ) throws(ReleaseRefusal) -> MigrationReport {
        let identity = AppVersion(name: app, version: version)
        var report = MigrationReport()
        try change("retire \(identity)", expecting: generation, by: requester) {
            published, current, configured throws(ReleaseRefusal) in
            try checkRetiring(
                identity, fallback: fallback, published: published, current: current, configured: configured)
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

    /// Refuses to retire `identity` (to `fallback`) when it is configured, not published, gives new sessions now or
    /// gave them until moments ago, or when `fallback` is not another served version of its app.
    private func checkRetiring(
        _ identity: AppVersion, fallback: Int?, published: PublishedApps, current: ServedApps,
        configured: Set<AppVersion>
    ) throws(ReleaseRefusal) {
        let (app, version) = (identity.name, identity.version)
        if configured.contains(identity) {
            throw .conflict(
                "\(identity) is served from the nodes' configuration, not published: the one way to retire it is to "
                    + "take its definition out of every node's --app and reload them (SIGHUP, or a restart); its "
                    + "stored sessions then go where --rollout sends them (switchyard migrate shows where, first)")
        }
        guard published.version(identity) != nil else {
            throw .notFound(
                "\(identity) is neither published nor configured here: there is nothing to retire (a version taken "
                    + "out of the nodes' configuration is retired by that)")
        }
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
    }
}
