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
