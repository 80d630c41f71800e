/// Opening deep links.
extension NavigationEngine {
    /// Opens a deep link through the app's router, as one transaction.
    ///
    /// - Returns: `.opened`, or `.pending` when the handler said the link must wait (it is kept in the state and
    ///   retried after every committed change until it opens).
    /// - Throws: ``NavigationError/deepLinkNotMatched(_:patterns:)`` when no pattern matches; whatever the handler
    ///   throws (e.g. ``NavigationError/deepLinkUnresolved(_:reason:)``). Nothing changes then.
    @discardableResult
    public func open(_ url: String) throws -> DeepLinkResult {
        guard let deepLinks else { throw NavigationError.deepLinkNotMatched(url, patterns: []) }
        return try transaction {
            let savepoint = (storage, journal)
            if try deepLinks.open(url, root: rootCoordinator) {
                return .opened
            }
            // A handler that says "pending" keeps none of what it may have changed before saying so.
            (storage, journal) = savepoint
            storage.pendingDeepLink = url
            markChanged()
            return .pending
        }
    }

    /// The deep-link patterns the app declared.
    public var deepLinkPatterns: [String] {
        deepLinks?.patterns ?? []
    }
}
