/// A URL that matched a deep-link pattern, with its parameters.
public struct DeepLink: Sendable, Hashable {
    /// The URL as opened.
    public let url: String
    /// The pattern that matched.
    public let pattern: String
    /// Path (and declared query) parameters by name, already checked against their declared types.
    public let parameters: [String: String]
    /// All query members of the URL.
    public let query: [String: String]

    /// A string parameter.
    public func string(_ name: String) throws -> String {
        guard let value = parameters[name] else {
            throw NavigationError.deepLinkUnresolved(url, reason: "parameter '\(name)' is missing")
        }
        return value
    }

    /// An integer parameter (declared `:name(int)`).
    public func int(_ name: String) throws -> Int {
        guard let value = Int(try string(name)) else {
            throw NavigationError.deepLinkUnresolved(url, reason: "parameter '\(name)' is not an integer")
        }
        return value
    }
}

/// What a deep-link handler did.
public enum DeepLinkResult: Sendable, Hashable {
    /// The link was applied.
    case opened
    /// The link cannot be applied yet (e.g. the user is logged out); the engine keeps it and retries it after every
    /// committed change until it opens or fails.
    case pending
}
