import Switchyard

/// A change a client asks of a session, already decoded by the front end.
package enum SessionChange: Sendable {
    /// Steps on a coordinator (the visible one when nil), all or nothing.
    case transition(coordinator: String?, steps: [Step])
    /// A flow event sent from a coordinator (the visible item when nil) up its ancestors.
    case event(from: String?, FlowEvent)
    /// A deep link, opened now or kept pending.
    case deepLink(url: String)
    /// A return to an earlier version, as a new one.
    case restore(version: Int)

    /// Where the history says it came from.
    var source: HistorySource {
        switch self {
        case .transition(_, let steps): steps.allSatisfy(\.operation.isGesture) ? .gesture : .api
        case .event: .event
        case .deepLink: .deeplink
        case .restore: .restore
        }
    }
}
