import Foundation

/// A problem the server answered with (RFC 9457): what an app shows or acts on.
public struct ClientProblem: Error, Sendable, Equatable {
    /// The HTTP status.
    public let status: Int
    /// The stable error code (`unknownSession`, `staleVersion`, …), when the server gave one.
    public let code: String?
    /// What went wrong, in a sentence.
    public let detail: String
    /// The whole problem document (with `currentVersion` and `state` for 409 `redirected` and 412 `staleVersion`).
    public let body: [UInt8]

    /// The problem of an answer with `status` and `body`.
    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
        let json = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        code = json?["code"] as? String
        detail = json?["detail"] as? String ?? "HTTP \(status)"
    }
}
