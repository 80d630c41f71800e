import SwitchyardJSON

/// A problem the server answered with (RFC 9457): what an app shows or acts on.
///
/// The two problems that carry the session's state are typed (``Kind``): a guard's redirect (409 `redirected`, which
/// was applied: show its state) and a stale `expectedVersion` (412 `staleVersion`: the state the intent did not see).
public struct ClientProblem: Error, Sendable, Equatable {
    /// What the problem means for the app.
    public enum Kind: Sendable, Equatable {
        /// 409 `redirected`: a route guard sent the session elsewhere, as a new version (`currentVersion`, `state`);
        /// the guarded route waits as the state's `pendingRoute`.
        case redirected(currentVersion: Int, state: SessionDocument?)
        /// 412 `staleVersion`: the session had moved on from the intent's `expectedVersion`; nothing was applied.
        case staleVersion(currentVersion: Int, state: SessionDocument?)
        /// Any other refusal: nothing was applied.
        case refused
    }

    /// The HTTP status.
    public let status: Int
    /// The stable error code (`unknownSession`, `staleVersion`, …), when the server gave one.
    public let code: String?
    /// The title (`Refused by a navigation rule`).
    public let title: String?
    /// What went wrong, in a sentence.
    public let detail: String
    /// What it means for the app.
    public let kind: Kind
    /// The whole problem document, for its other members (`choices`, `limit`, …).
    public let json: JSONValue?

    /// The problem of an answer with `status` and `body`.
    public init(status: Int, body: [UInt8]) {
        self.status = status
        let json = try? JSONValue(parsing: body)
        self.json = json
        code = json?["code"]?.stringValue
        title = json?["title"]?.stringValue
        detail = json?["detail"]?.stringValue ?? "HTTP \(status)"
        let currentVersion: Int? =
            if case .number(let number)? = json?["currentVersion"] { Int(exactly: number) } else { nil }
        let state = json?["state"].flatMap(SessionDocument.init)
        switch (status, code, currentVersion) {
        case (409, "redirected", let version?): kind = .redirected(currentVersion: version, state: state)
        case (412, "staleVersion", let version?): kind = .staleVersion(currentVersion: version, state: state)
        default: kind = .refused
        }
    }
}
