import Switchyard
import SwitchyardJSON

/// What a reload of the served apps did.
public enum AppReload: Sendable, Equatable {
    /// New sessions get the new apps; the sessions running go on as they were.
    case reloaded
    /// Nothing changed: stored sessions the new apps could not restore (each line names one and why), or the store
    /// could not be read to find out.
    case refused([String])
}

extension SessionStore {
    /// The most sessions a refused reload names (the rest are counted).
    static let maxReportedBreaks = 20

    /// Replaces the served apps with `new` (the first the default), unless a stored session of an app named in
    /// `changed` could not be restored under `new`: every such session (its app gone, or its restore document
    /// refused by the new app) is named, and nothing changes. The sessions in memory keep their engines; new
    /// sessions, and sessions read back from the store later, get the new apps.
    package func reload(_ new: [NavigationApp], checking changed: Set<String>) -> AppReload {
        guard !new.isEmpty else { return .refused(["no app would be served"]) }
        var breaks: [String] = []
        var broken = 0
        for name in changed.sorted() {
            let app = new.first { $0.name == name }
            var after: String?
            while true {
                let ids: [String]
                do {
                    ids = try archive.sessionIDs(ofApp: name, after: after, limit: 500)
                } catch {
                    return .refused(["the store could not be read to check the sessions of '\(name)': \(error)"])
                }
                for id in ids {
                    guard let reason = restoreFailure(of: id, app: name, under: app) else { continue }
                    broken += 1
                    if breaks.count < Self.maxReportedBreaks { breaks.append("session \(id) of '\(name)': \(reason)") }
                }
                guard let last = ids.last, ids.count == 500 else { break }
                after = last
            }
        }
        if broken > breaks.count { breaks.append("and \(broken - breaks.count) more sessions") }
        guard breaks.isEmpty else { return .refused(breaks) }
        served.withLock { $0 = new }
        return .reloaded
    }

    /// Why the stored session `id` of `name` would not restore under `app` (nil: it would).
    private func restoreFailure(of id: String, app name: String, under app: NavigationApp?) -> String? {
        guard let app else { return "the app '\(name)' would not be served any more" }
        let stored: StoredSession?
        do {
            stored = try archive.session(id)
        } catch {
            return "the store could not read it: \(error)"
        }
        guard let stored else { return nil }  // removed meanwhile
        do {
            _ = try app.restoreEngine(from: try JSONValue(parsing: stored.state))
            return nil
        } catch {
            return (error as? NavigationError)?.message ?? "\(error)"
        }
    }
}
