import SwitchyardJSON
import SwitchyardSessions

/// One step of a session's recorded history as a replay sees it: a request to re-run (with the entries its change
/// made), or an entry that is not a request.
///
/// Decisions: `api` and `gesture` entries re-run on `…/transitions` (a gesture is a transitions body whose steps are
/// all gestures), `event` on `…/events`, `deeplink` on `…/deeplinks`, `restore` on `…/restore`. The entries a change
/// makes after its own (a pending deep link completed, source `deeplink`, request `{"pendingDeepLink":
/// "completed"}`; a pending route entered, source `guard`, `{"pendingRoute": "entered"}`) are not requests: they
/// belong to the request before them, which the candidate must answer with the same path after all of them. A
/// creation is not an entry (the replay starts from the state it made); a `migration` entry is not re-run (the
/// candidate's copy went through the chain when it was read).
enum RecordedRequest: Sendable {
    /// A request: the endpoint it goes to (`transitions`, `events`, `deeplinks`, `restore`), and its entry followed
    /// by the entries its change made after it.
    case request(endpoint: String, entries: [StoredChange])
    /// A migration of the recorded session to a newer app version (`restart`: it started over on a retired
    /// version's fallback instead).
    case migration(StoredChange, to: Int?, restart: Bool)

    /// The endpoint a request from `source` was sent to; nil for what is not a request.
    static func endpoint(of source: HistorySource) -> String? {
        switch source {
        case .api, .gesture: "transitions"
        case .event: "events"
        case .deeplink: "deeplinks"
        case .restore: "restore"
        case .guard, .migration: nil
        }
    }

    /// Whether `entry` was made by the change of the request before it (a pending deep link or route completed).
    static func isFollowUp(_ entry: StoredChange) -> Bool {
        switch entry.source {
        case .guard: true
        case .deeplink: entry.request.elementsEqual(#"{"pendingDeepLink":"completed"}"#.utf8)
        default: false
        }
    }

    /// `entries` (a page of history, oldest first; `open`: the request still collecting follow-ups from the page
    /// before) as requests and migrations; the last request is left open (returned apart), as the next page may
    /// hold its follow-ups.
    static func group(
        _ entries: [StoredChange], open: RecordedRequest?
    ) -> (complete: [RecordedRequest], open: RecordedRequest?) {
        var complete: [RecordedRequest] = []
        var current = open
        for entry in entries {
            if isFollowUp(entry), case .request(let endpoint, let made)? = current {
                current = .request(endpoint: endpoint, entries: made + [entry])
                continue
            }
            if let current { complete.append(current) }
            if entry.source == .migration {
                let migration = (try? JSONValue(parsing: entry.request))?["migration"]
                let to = integer(migration?["to"]?["version"])
                current = .migration(entry, to: to, restart: migration?["restart"] != nil)
            } else if let endpoint = endpoint(of: entry.source) {
                current = .request(endpoint: endpoint, entries: [entry])
            } else {
                // A follow-up with no request before it on record (its request's entry was trimmed): skipped.
                current = nil
            }
        }
        return (complete, current)
    }

    /// A whole number held by `value`, if it holds one (never traps, whatever the store holds).
    static func integer(_ value: JSONValue?) -> Int? {
        guard case .number(let number)? = value else { return nil }
        return Int(exactly: number)
    }
}
