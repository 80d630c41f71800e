/// Why ``ServerConfiguration/adminToken`` is refused.
public enum AdminTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// It has fewer than `minimum` characters: a guessable token would open the admin endpoints.
    case tooShort(minimum: Int)

    public var description: String {
        switch self {
        case .tooShort(let minimum): "the admin token must be at least \(minimum) characters (openssl rand -hex 32)"
        }
    }
}
