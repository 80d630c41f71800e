/// A declarative deep-link router: URL patterns mapped to chains on the root coordinator.
///
/// ```swift
/// let links = DeepLinkRouter<AppCoordinator>()
///     .route("jumper://io.idevs/todo/:id") { app, link in
///         guard let tabs = app.hasRoot(\.authenticated) else { return .pending }
///         try tabs.focus(\.todos).present(\.todo, try link.string("id"))
///         return .opened
///     }
/// ```
/// Patterns are tried in order; the first that matches handles the link. Handlers run inside the engine's
/// transaction: if one throws, nothing changes.
public struct DeepLinkRouter<Root: Coordinatable>: Sendable {
    /// A handler: applies the link to the root coordinator.
    public typealias Handler = @Sendable (Root, DeepLink) throws -> DeepLinkResult

    /// One pattern: its examples (those it matches, and those it does not, which are left out) and its handler.
    struct Entry: Sendable {
        let pattern: DeepLinkPattern
        let examples: [String]
        let rejectedExamples: [String]
        let handler: Handler
    }

    let entries: [Entry]

    /// An empty router.
    public init() {
        entries = []
    }

    private init(entries: [Entry]) {
        self.entries = entries
    }

    /// A router with one more pattern (see the pattern syntax in docs/coordinators.md: `:name`, `:name(int)`,
    /// `scheme1|scheme2://`, host `*`, `?key=:param`), and `examples`: links it matches, with sample values,
    /// that tools and the page offer to try (one that the pattern does not match is left out).
    public func route(_ pattern: String, examples: [String] = [], _ handler: @escaping Handler) -> DeepLinkRouter {
        let pattern = DeepLinkPattern(pattern)
        let matched = examples.filter { pattern.match($0) != nil }
        let entry = Entry(
            pattern: pattern, examples: matched, rejectedExamples: examples.filter { !matched.contains($0) },
            handler: handler)
        return DeepLinkRouter(entries: entries + [entry])
    }

    /// The patterns, in order.
    public var patterns: [String] {
        entries.map(\.pattern.text)
    }

    /// The example links of every pattern, in the patterns' order.
    public var examples: [String] {
        entries.flatMap(\.examples)
    }

    /// The first match for a URL.
    public func match(_ url: String) -> (DeepLink, Handler)? {
        for entry in entries {
            if let link = entry.pattern.match(url) { return (link, entry.handler) }
        }
        return nil
    }
}

/// A router with its root type erased, as the engine keeps it: a class, so that every engine of an app holds one
/// reference to the router the app erased once (8 bytes, not 32).
final class AnyDeepLinkRouter: Sendable {
    let patterns: [String]
    /// Each pattern with its first example (how to spell what the pattern leaves open), for reverse routing.
    let spellings: [(pattern: DeepLinkPattern, example: String?)]
    let openLink: @Sendable (String, AnyObject) throws -> DeepLinkResult?

    init<Root: Coordinatable>(_ router: DeepLinkRouter<Root>) {
        patterns = router.patterns
        spellings = router.entries.map { ($0.pattern, $0.examples.first) }
        openLink = { url, root in
            guard let (link, handler) = router.match(url), let root = root as? Root else { return nil }
            return try handler(root, link)
        }
    }

    /// Opens a link: true if opened, false if pending; throws when nothing matches or the handler refuses.
    func open(_ url: String, root: AnyObject) throws -> Bool {
        guard let result = try openLink(url, root) else {
            throw NavigationError.deepLinkNotMatched(url, patterns: patterns)
        }
        return result == .opened
    }
}
