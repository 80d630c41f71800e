/// The deep link that shows what a session has on screen (``LiveSessions/visibleLink(of:)``).
package struct VisibleLink: Sendable, Equatable {
    /// The session's version.
    package let version: Int
    /// The route names from the root to the visible screen.
    package let path: [String]
    /// The app's link that opens this screen, or nil when none does.
    package let link: String?
}
