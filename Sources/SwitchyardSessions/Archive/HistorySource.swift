/// Where a committed change of a session came from, as its history entry says (`source` in
/// `GET /api/sessions/{id}/history`).
public enum HistorySource: String, Sendable, CaseIterable {
    /// A transition request (`POST …/transitions`).
    case api
    /// A deep link, or a pending deep link completed after another change.
    case deeplink
    /// A flow event (`POST …/events`).
    case event
    /// A gesture step (back, swipe down, tab tap).
    case gesture
    /// A guard's redirect, or the pending route it kept, entered later.
    case `guard`
    /// A restore to an earlier version.
    case restore
    /// A migration to a newer version of the app (the request is `{"migration": {"from": app, "to": app}}`).
    case migration

    /// The source a store kept as text; one this program does not know (written by a newer one) reads as `api`.
    public init(stored: String) {
        self = HistorySource(rawValue: stored) ?? .api
    }
}
