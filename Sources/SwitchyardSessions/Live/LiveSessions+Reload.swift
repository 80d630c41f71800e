import Switchyard
import SwitchyardJSON

/// What a reload of the served apps did.
public enum AppReload: Sendable, Equatable {
    /// New sessions, and every session from its next request on, run the new apps.
    case reloaded
    /// Nothing changed: stored sessions the new apps could not restore (each line names one and why), or the store
    /// could not be read to find out.
    case refused([String])
}

extension LiveSessions {
    /// The most sessions a refused reload names (the rest are counted).
    static let maxReportedBreaks = 20

    /// Serves `new`, unless a stored session of an app named in `changed` could not be restored under it: then every
    /// such session (its app gone, or its restore document refused by the new app) is named, and nothing changes.
    ///
    /// Taken, the reload swaps the apps and takes the sessions of the changed apps out of memory at once (their
    /// streams end; clients reconnect): no engine made by the old apps changes a session after that, and each
    /// session is read back from the store under the new apps by its next request. A session that changed while
    /// the store was being checked is checked again afterwards; one that then fails is logged as an error.
    package func reload(_ new: ServedApps, checking changed: Set<String>) -> AppReload {
        guard !new.apps.isEmpty else { return .refused(["no app would be served"]) }
        var checked: [String: Int] = [:]
        var breaks: [String] = []
        var broken = 0
        let outcome = forEachStored(of: changed) { id, name -> String? in
            let (version, reason) = restoreFailure(of: id, under: new)
            if let version { checked[id] = version }
            guard let reason else { return nil }
            broken += 1
            if breaks.count < Self.maxReportedBreaks { breaks.append("session \(id) of '\(name)': \(reason)") }
            return nil
        }
        if let failure = outcome { return .refused([failure]) }
        if broken > breaks.count { breaks.append("and \(broken - breaks.count) more sessions") }
        guard breaks.isEmpty else { return .refused(breaks) }

        serve(new, changing: changed)

        // Changed while the store was checked (by an engine of the old apps): checked again, now that none runs.
        _ = forEachStored(of: changed) { id, name -> String? in
            guard !new.versions(of: name).isEmpty || checked[id] == nil else { return nil }  // refused above then
            let (version, reason) = restoreFailure(of: id, under: new, unless: checked[id])
            guard version != nil, let reason else { return nil }
            logger.error(
                "a session changed during the reload into a state the new app cannot restore",
                metadata: ["session": "\(id)", "app": "\(name)", "reason": "\(reason)"])
            return nil
        }
        return .reloaded
    }

    /// Serves `new` from now on, checking nothing: the sessions of the apps in `changed` leave memory at once (their
    /// streams end; clients reconnect) and are read back under `new` by their next request (migrated, pinned or
    /// started over as ``ServedApps/destination(of:)`` says). What a node does when another node published a change.
    package func serve(_ new: ServedApps, changing changed: Set<String>) {
        // Ended, and their writes in flight settled, before they leave (see `evictLeastRecentlyUsed`); a copy
        // read back meanwhile was made under the served apps being replaced, and leaves below.
        let ending = sessions.withLock { $0.values.filter { changed.contains($0.app) } }
        for session in ending { session.closeStreams() }
        for session in ending { session.awaitWrites() }
        let (leaving, count) = sessions.withLock { sessions in
            served.withLock { $0 = (new, $0.generation + 1) }
            let leaving = sessions.values.filter { changed.contains($0.app) }
            for session in leaving { sessions[session.id] = nil }
            return (leaving, sessions.count)
        }
        counters.setSessions(count)
        for session in leaving { session.closeStreams() }
    }

    /// Calls `body` with the id and app of every stored session of `apps` (in app name, then id order), until it
    /// returns a failure; that failure, or the store's if it fails.
    func forEachStored(of apps: Set<String>, _ body: (String, String) -> String?) -> String? {
        archive.forEachStoredSession(of: apps, body)
    }

    /// The stored version of session `id` and why it could not be served under `apps` (nil: it could, on its version
    /// or migrated, or it is stored at `version` already checked, or it is gone).
    private func restoreFailure(
        of id: String, under apps: ServedApps, unless version: Int? = nil
    ) -> (version: Int?, reason: String?) {
        let stored: StoredSession?
        do {
            stored = try archive.session(id)
        } catch {
            return (nil, "the store could not read it: \(error)")
        }
        guard let stored else { return (nil, nil) }  // removed meanwhile
        if stored.version == version { return (stored.version, nil) }
        do {
            guard case .lost(_, let reason) = try plan(stored, under: apps).plan else { return (stored.version, nil) }
            return (stored.version, reason)
        } catch {
            return (stored.version, Self.reason(error))
        }
    }
}
