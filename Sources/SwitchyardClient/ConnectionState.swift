import Foundation

/// How a client's connection to a session's stream is doing. While it is not `live`, the last state stays the
/// one to show.
public enum ConnectionState: Sendable, Equatable {
    /// Opening the stream (the first time).
    case connecting
    /// Following: every change arrives as it is made.
    case live
    /// The stream ended or could not be opened; the next try is at `next` (try `attempt`, from 1).
    case reconnecting(next: Date, attempt: Int)
    /// The server refused the session for good (deleted, expired, or never there): its problem. Nothing more
    /// comes.
    case failed(ClientProblem)
}

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

/// What a follower reports: a new state, or a change of its connection.
public enum SessionUpdate: Sendable, Equatable {
    /// The session's state now.
    case state(SessionDocument)
    /// The connection's state now.
    case connection(ConnectionState)
}
