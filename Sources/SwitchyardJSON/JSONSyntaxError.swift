/// Why a text is not JSON, and the byte where the parser stopped: the underlying error of the
/// `DecodingError.dataCorrupted` that ``JSONValue/init(parsing:)`` throws.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The offset (from 0) of the byte the parser stopped at.
    public let byteOffset: Int
    /// What it expected or found (`expected ',' or '}'`).
    public let reason: String

    /// The error at `byteOffset`.
    public init(byteOffset: Int, reason: String) {
        self.byteOffset = byteOffset
        self.reason = reason
    }

    /// `invalid JSON at byte 193: expected ',' or '}'`.
    public var description: String { "invalid JSON at byte \(byteOffset): \(reason)" }
}
