/// An app the server can host: how to make the root coordinator of a new session, and the deep-link router.
///
/// ```swift
/// let app = NavigationApp(name: "todo", root: { AppCoordinator() }, deepLinks: AppCoordinator.deepLinks)
/// let engine = try app.makeEngine()
/// ```
public struct NavigationApp: Sendable {
    /// The app's name (what `POST /api/sessions {"app": …}` selects).
    public let name: String
    private let make: @Sendable () throws -> NavigationEngine
    private let restore: @Sendable (JSONValue) throws -> NavigationEngine
    let makeRoot: @Sendable () -> any Coordinatable
    /// The deep-link patterns, in order.
    public let deepLinkPatterns: [String]
    /// Example links the patterns match, with sample values (``DeepLinkRouter/route(_:examples:_:)``).
    public let deepLinkExamples: [String]
    /// What ``check()`` finds in the deep-link patterns (found once, as the router is a value).
    let deepLinkDiagnostics: [AppDiagnostic]

    /// Describes an app by its root coordinator factory and deep links.
    public init<Root: Coordinatable>(
        name: String, root: @escaping @Sendable () -> Root, deepLinks: DeepLinkRouter<Root>? = nil
    ) {
        self.name = name
        makeRoot = { root() }
        deepLinkPatterns = deepLinks?.patterns ?? []
        deepLinkExamples = deepLinks?.examples ?? []
        deepLinkDiagnostics = deepLinks?.diagnostics ?? []
        make = { try NavigationEngine(root: root(), deepLinks: deepLinks) }
        restore = { document in try NavigationEngine(restoring: document, root: root(), deepLinks: deepLinks) }
    }

    /// A new engine at the app's initial state.
    public func makeEngine() throws -> NavigationEngine {
        try make()
    }

    /// An engine restored from a state document.
    public func restoreEngine(from document: JSONValue) throws -> NavigationEngine {
        try restore(document)
    }
}
