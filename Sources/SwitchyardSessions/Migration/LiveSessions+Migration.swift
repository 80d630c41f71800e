import Switchyard
import SwitchyardJSON

/// Reading a stored session back under the served apps: on its own version, or migrated to a newer one (stored as a
/// new version of the session, history source `migration`) as ``ServedApps/destination(of:)`` says.
extension LiveSessions {
    /// What reading a stored session back gave.
    enum ReadBack {
        /// The engine it runs now, and the session as stored now (a migration stored a new version of it).
        case ready(NavigationEngine, StoredSession)
        /// Another node changed the session while it was being migrated: read it again.
        case changedMeanwhile
    }

    /// How a stored session fares under the served apps, without changing anything: what a dry run reports.
    package enum Plan: Sendable {
        /// It runs on its version, which the rollout lists.
        case current(AppVersion)
        /// It migrates from `from` to `to`, landing on `path` (its visible route path there).
        case migrates(from: AppVersion, to: AppVersion, path: [String])
        /// It stays on `version`, pinned, for `reason`: the rollout pins it, no migration leads on from it, or
        /// (`failed`) the one that does cannot take it.
        case pinned(AppVersion, reason: String, failed: Bool)
        /// Its version was retired naming `to` as the fallback and no migration takes it: it starts over on `to`,
        /// landing on `path` (that version's initial screens); why.
        case restarts(from: AppVersion, to: AppVersion, path: [String], reason: String)
        /// It cannot be served: its version is gone and no migration takes it, or its own version cannot restore it.
        case lost(AppVersion, reason: String)

        /// The version it leaves, when it migrates or restarts (a new version of the session is stored).
        var moving: AppVersion? {
            switch self {
            case .migrates(let from, _, _), .restarts(let from, _, _, _): from
            case .current, .pinned, .lost: nil
            }
        }
    }

    /// The engine stored session `stored` runs from now on, under `apps`: restored on its own version, or migrated
    /// (the migration is stored before the engine is handed out). A session that cannot be served is
    /// ``LookupFailure/incompatible(_:)``, counted and logged.
    func readBack(_ stored: StoredSession, under apps: ServedApps) throws(LookupFailure) -> ReadBack {
        let outcome: (plan: Plan, engine: NavigationEngine?)
        do {
            outcome = try plan(stored, under: apps)
        } catch {
            throw incompatible(stored.id, (error as? NavigationError)?.message ?? "\(error)")
        }
        switch outcome.plan {
        case .lost(_, let reason):
            throw incompatible(stored.id, reason)
        case .current, .pinned:
            guard let engine = outcome.engine else { throw incompatible(stored.id, "no engine") }
            if case .pinned(let version, let reason, true) = outcome.plan {
                counters.countMigration(of: version, outcome: .pinned)
                logger.info(
                    "a stored session stays on its version: its migration failed",
                    metadata: ["session": "\(stored.id)", "app": "\(version)", "reason": "\(reason)"])
            }
            return .ready(engine, stored)
        case .migrates(let from, _, _), .restarts(let from, _, _, _):
            guard let engine = outcome.engine else { throw incompatible(stored.id, "no engine") }
            do {
                return try storeMigration(of: stored, engine: engine, outcome.plan)
            } catch .store(let incident) {
                // Not stored: served on its own version while that is served (it migrates on a later read).
                guard let own = apps.app(from),
                    let engine = try? own.restoreEngine(from: JSONValue(parsing: stored.state))
                else { throw .store(incident) }
                return .ready(engine, stored)
            }
        }
    }

    /// Where stored session `stored` goes under `apps`, with the engine it would run (none when it is lost).
    /// Throws only when its document cannot be read at all.
    func plan(_ stored: StoredSession, under apps: ServedApps) throws -> (plan: Plan, engine: NavigationEngine?) {
        let document = try JSONValue(parsing: stored.state)
        let identity = try AppVersion.written(in: document, app: stored.app)
        return plan(stored, document: document, identity: identity, going: apps.destination(of: identity), apps: apps)
    }

    /// Where stored session `stored` (its `document`, written by `identity`) goes to `destination`; `failed`: why
    /// the migrations tried before it did not take it.
    private func plan(
        _ stored: StoredSession, document: JSONValue, identity: AppVersion, going destination: ServedApps.Destination,
        apps: ServedApps, failed: String? = nil
    ) -> (plan: Plan, engine: NavigationEngine?) {
        switch destination {
        case .gone(let reason):
            return (.lost(identity, reason: failed ?? reason), nil)
        case .stay(let app, let pinned):
            do {
                let engine = try app.restoreEngine(from: document)
                if let failed { return (.pinned(identity, reason: failed, failed: true), engine) }
                return (pinned.map { .pinned(identity, reason: $0, failed: false) } ?? .current(identity), engine)
            } catch {
                return (
                    .lost(identity, reason: [failed, Self.reason(error)].compactMap(\.self).joined(separator: "; ")),
                    nil
                )
            }
        case .restart(let app, let reason):
            do {
                let fresh = try JSONValue(parsing: try app.makeEngine().restoreDocument())
                let engine = try app.restoreEngine(from: Self.atNextVersion(fresh, stored))
                return (.restarts(from: identity, to: app.identity, path: engine.visiblePath, reason: reason), engine)
            } catch {
                return (.lost(identity, reason: "\(reason), which cannot start: \(Self.reason(error))"), nil)
            }
        case .migrate(let targets, let otherwise):
            var reasons: [String] = []
            for target in targets {
                do {
                    let migrated = try target.migrated(
                        document, from: identity.version, through: apps.versions(of: identity.name))
                    let engine = try target.restoreEngine(from: Self.atNextVersion(migrated, stored))
                    return (.migrates(from: identity, to: target.identity, path: engine.visiblePath), engine)
                } catch {
                    reasons.append("to version \(target.version): \(Self.reason(error))")
                }
            }
            let reason = "no migration takes it (" + reasons.joined(separator: "; ") + ")"
            return plan(stored, document: document, identity: identity, going: otherwise, apps: apps, failed: reason)
        }
    }

    /// `document` stamped as the version after `stored`'s: what a migrated or restarted session is stored as.
    private static func atNextVersion(_ document: JSONValue, _ stored: StoredSession) -> JSONValue {
        guard case .object(var members) = document else { return document }
        members["version"] = .number(Double(stored.version + 1))
        return .object(members)
    }

    /// Stores the migration (or restart) `plan` of `stored` to `engine` (at the next version) as a change of the
    /// session.
    private func storeMigration(
        of stored: StoredSession, engine: NavigationEngine, _ plan: Plan
    ) throws(LookupFailure) -> ReadBack {
        let (from, to, path, restart): (AppVersion, AppVersion, [String], String?)
        switch plan {
        case .migrates(let old, let new, let landing): (from, to, path, restart) = (old, new, landing, nil)
        case .restarts(let old, let new, let landing, let reason):
            (from, to, path, restart) = (old, new, landing, reason)
        case .current, .pinned, .lost: return .ready(engine, stored)
        }
        var migrated = stored
        do {
            migrated.state = try engine.restoreDocument()
        } catch {
            throw incompatible(stored.id, Self.reason(error))
        }
        migrated.version = engine.version
        var migration: [String: JSONValue] = ["from": from.json, "to": to.json]
        if let restart { migration["restart"] = .string(restart) }
        let request: JSONValue = ["migration": .object(migration)]
        // Stamped with when it happened. A migration is not a use: every store keeps the session's last use from its
        // latest other entry, so a migration neither keeps an idle session alive nor brings back one that expired.
        let entry = StoredChange(
            version: engine.version, time: configuration.now(), source: .migration, request: request.serialized(),
            visiblePath: path, state: migrated.state)
        do {
            try archive.apply([
                .change(
                    session: stored.id, base: stored.version, version: engine.version, state: migrated.state,
                    history: [entry], reply: nil)
            ])
        } catch .conflict {
            return .changedMeanwhile
        } catch {
            throw .store(health.failed(error, during: "migrate", session: stored.id))
        }
        counters.countMigration(of: from, outcome: restart == nil ? .migrated : .restarted)
        logger.info(
            restart == nil
                ? "a stored session migrated" : "a stored session started over on its retired version's fallback",
            metadata: ["session": "\(stored.id)", "from": "\(from)", "to": "\(to)", "path": "\(path)"])
        return .ready(engine, migrated)
    }

    /// A restore document of an earlier version of a session, for the session (which runs `running` now) to restore:
    /// migrated to the app version `running` when that version ran an older one.
    ///
    /// - Throws: ``Switchyard/NavigationError/restoreFailed(_:)`` when no served migration takes it there.
    func documentForRestore(_ saved: [UInt8], running: AppVersion?) throws -> JSONValue {
        let document = try JSONValue(parsing: saved)
        guard let running else { return document }
        let written = try AppVersion.written(in: document, app: running.name)
        guard written != running else { return document }
        let apps = served.withLock { $0.apps }
        guard let app = apps.app(running), written.name == running.name, written.version < running.version else {
            throw NavigationError.restoreFailed("that version ran \(written), the session runs \(running)")
        }
        return try app.migrated(document, from: written.version, through: apps.versions(of: running.name))
    }

    func incompatible(_ id: String, _ reason: String) -> LookupFailure {
        counters.countIncompatible()
        logger.warning("stored session cannot be restored", metadata: ["session": "\(id)", "reason": "\(reason)"])
        return .incompatible(reason)
    }

    static func reason(_ error: any Error) -> String {
        (error as? NavigationError)?.message ?? "\(error)"
    }
}

extension LiveSessions {
    /// Goes over every stored session of the served apps, in id order: reports where each goes under the served apps
    /// and, with `apply`, migrates those that migrate (each one a stored change of its own, so a pass stopped
    /// halfway, by a crash or `kill -9`, leaves every session either migrated or as it was, and the next pass or
    /// read finishes it). Sessions in memory are read from the store like the others. Changes nothing without
    /// `apply`.
    package func migrateStored(apply: Bool) -> MigrationReport {
        let report = passOverStored(apply: apply)
        if let failure = report.failure {
            logger.error(
                "the pass over the stored sessions stopped", metadata: ["reason": "\(failure)", "apply": "\(apply)"])
        }
        return report
    }

    /// What `apps` would do with every stored session of the apps named `names` (a dry run, changing nothing): what
    /// an admin change of the served apps checks before it is made.
    package func plannedStored(of names: Set<String>, under apps: ServedApps) -> MigrationReport {
        passOverStored(apply: false, of: names, under: apps)
    }

    private func passOverStored(
        apply: Bool, of names: Set<String>? = nil, under given: ServedApps? = nil
    ) -> MigrationReport {
        let apps = given ?? served.withLock { $0.apps }
        var report = MigrationReport()
        report.failure = forEachStored(of: names ?? Set(apps.names)) { id, _ in
            visit(id, apps: apps, apply: apply, into: &report)
        }
        return report
    }

    /// Plans (and with `apply`, stores) the migration of stored session `id`; the store's failure, if it fails.
    private func visit(_ id: String, apps: ServedApps, apply: Bool, into report: inout MigrationReport) -> String? {
        var migrating: AppVersion?
        for attempt in 0..<retry.attempts {
            retry.pause(before: attempt)
            let stored: StoredSession
            do {
                guard let found = try archive.session(id) else { return nil }  // removed meanwhile
                stored = found
            } catch {
                return "the store could not read session \(id): \(error)"
            }
            if let expires = expiry(
                of: Session.Activity(lastAccess: stored.lastAccess, recordedAccess: 0, used: stored.used)),
                expires <= configuration.now()
            {
                return nil  // idle past its TTL: gone at its next read or sweep, not migrated
            }
            let planned: (plan: Plan, engine: NavigationEngine?)
            do {
                planned = try plan(stored, under: apps)
            } catch {
                report.record(.lost(AppVersion(name: stored.app, version: 1), reason: Self.reason(error)), session: id)
                return nil
            }
            guard apply, let from = planned.plan.moving, let engine = planned.engine else {
                report.record(planned.plan, session: id)
                return nil
            }
            migrating = from
            do {
                guard case .ready = try storeMigration(of: stored, engine: engine, planned.plan)
                else { continue }  // changed meanwhile: planned again
            } catch .store(let incident) {
                return "session \(id) could not be stored migrated: \(incident.error)"
            } catch {
                report.record(
                    .pinned(from, reason: "its migration could not be stored: \(error)", failed: true), session: id)
                return nil
            }
            if let live = live(id) { evict(live) }  // its copy in memory is of the old version
            report.record(planned.plan, session: id)
            return nil
        }
        if let migrating {
            let reason = "it kept changing during the pass; it migrates when next read"
            report.record(.pinned(migrating, reason: reason, failed: true), session: id)
        }
        return nil
    }
}
