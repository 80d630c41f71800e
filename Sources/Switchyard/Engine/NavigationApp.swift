/// An app the server can host: how to make the root coordinator of a new session, and the deep-link router.
///
/// ```swift
/// let app = NavigationApp(name: "todo", root: { AppCoordinator() }, deepLinks: AppCoordinator.deepLinks)
/// let engine = try app.makeEngine()
/// ```
///
/// A release that changes what sessions store (a route or coordinator renamed or removed, data reshaped) is a new
/// ``version``, with the ``migrations`` that bring sessions of earlier versions to it:
///
/// ```swift
/// let v2 = NavigationApp(
///     name: "todo", version: 2, root: { AppCoordinator() },
///     migrations: [AppMigration(from: 1).renamingRoute("detail", to: "todo", in: "TodosCoordinator")])
/// ```
public struct NavigationApp: Sendable {
    /// The app's name (what `POST /api/sessions {"app": …}` selects).
    public let name: String
    /// The app's version (1 unless declared): engines it makes name it in their documents, and it restores only
    /// documents of this version (older ones are migrated first).
    public let version: Int
    /// How sessions of earlier versions become sessions of this one, at most one per earlier version.
    public let migrations: [AppMigration]
    private let make: @Sendable () throws -> NavigationEngine
    private let restore: @Sendable (JSONValue) throws -> NavigationEngine
    let makeRoot: @Sendable () -> any Coordinatable
    /// The deep-link patterns, in order.
    public let deepLinkPatterns: [String]
    /// Example links the patterns match, with sample values (``DeepLinkRouter/route(_:examples:_:)``).
    public let deepLinkExamples: [String]
    /// What ``check()`` finds in the deep-link patterns (found once, as the router is a value).
    let deepLinkDiagnostics: [AppDiagnostic]
    /// Whether a deep-link pattern matches a URL: what ``check()`` asks of a screen's deep-link actions.
    let matchesDeepLink: @Sendable (String) -> Bool
    /// Texts the app's guards compare data with (an app declared as data knows them): what an exploration types
    /// into text fields besides a sample, so that a guard waiting for a value someone types can hold.
    package var guardedTexts: [String] = []

    /// Describes an app by its root coordinator factory and deep links.
    public init<Root: Coordinatable>(
        name: String, version: Int = 1, root: @escaping @Sendable () -> Root, deepLinks: DeepLinkRouter<Root>? = nil,
        migrations: [AppMigration] = []
    ) {
        self.name = name
        self.version = version
        self.migrations = migrations
        makeRoot = { root() }
        deepLinkPatterns = deepLinks?.patterns ?? []
        deepLinkExamples = deepLinks?.examples ?? []
        deepLinkDiagnostics = deepLinks?.diagnostics ?? []
        matchesDeepLink = { deepLinks?.match($0) != nil }
        let identity = AppVersion(name: name, version: version)
        // Erased once: every session's engine shares the router (its patterns and matcher), none builds its own.
        let router = deepLinks.map(AnyDeepLinkRouter.init)
        make = {
            let engine = try NavigationEngine(erasedRoot: root(), deepLinks: router)
            engine.app = identity
            return engine
        }
        restore = { document in
            let written = try AppVersion.written(in: document, app: name)
            guard written == identity else {
                throw NavigationError.restoreFailed("it was stored by \(written), this is \(identity)")
            }
            let engine = try NavigationEngine(restoring: document, erasedRoot: root(), deepLinks: router)
            engine.app = identity
            return engine
        }
    }

    /// The app and version its engines name.
    public var identity: AppVersion { AppVersion(name: name, version: version) }

    /// A new engine at the app's initial state.
    public func makeEngine() throws -> NavigationEngine {
        try make()
    }

    /// An engine restored from a state or restore document this version of the app wrote (one that names no app
    /// counts as version 1's); ``migrated(_:from:through:)`` brings an older version's document to this one.
    public func restoreEngine(from document: JSONValue) throws -> NavigationEngine {
        try restore(document)
    }
}
