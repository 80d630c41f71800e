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

    /// The source a store kept as text, from the text's bytes (only read during the call).
    public init(stored bytes: UnsafeRawBufferPointer) {
        self = Self.allCases.first { $0.storedText.withUTF8Buffer { $0.elementsEqual(bytes) } } ?? .api
    }

    /// The text a store keeps (the raw value), without a `String`.
    private var storedText: StaticString {
        switch self {
        case .api: "api"
        case .deeplink: "deeplink"
        case .event: "event"
        case .gesture: "gesture"
        case .guard: "guard"
        case .restore: "restore"
        case .migration: "migration"
        }
    }
}
