import SwitchyardJSON

/// What a request came to, as recorded in a session's history or as a candidate answered it when replayed.
///
/// A recorded request is always ``committed(path:)`` or ``redirected(path:)``: refusals make no version, so the
/// history never holds one.
public enum ReplayOutcome: Sendable, Equatable {
    /// It committed (2xx); `path` is the visible route path after it.
    case committed(path: [String])
    /// A route guard redirected it (409 `redirected`, committed as the redirect's version); `path` is the visible
    /// route path after the redirect.
    case redirected(path: [String])
    /// It was refused with the problem `code` and HTTP `status`; nothing changed.
    case refused(code: String, status: Int)

    /// The visible path after it, when it changed the session.
    public var path: [String]? {
        switch self {
        case .committed(let path), .redirected(let path): path
        case .refused: nil
        }
    }

    /// How it is named in a reason: `committed`, `redirected`, `refused with unknownRoute`.
    public var wording: String {
        switch self {
        case .committed: "committed"
        case .redirected: "redirected by a route guard"
        case .refused(let code, _): "refused with \(code)"
        }
    }

    /// `{"outcome": "committed"|"redirected", "path": […]}` or `{"outcome": "refused", "code", "status"}`.
    public var json: JSONValue {
        switch self {
        case .committed(let path): ["outcome": "committed", "path": .array(path.map { .string($0) })]
        case .redirected(let path): ["outcome": "redirected", "path": .array(path.map { .string($0) })]
        case .refused(let code, let status):
            ["outcome": "refused", "code": .string(code), "status": .number(Double(status))]
        }
    }

    /// `committed catalogue/item`, `refused with unknownRoute (422)`: what a person reads.
    public var text: String {
        switch self {
        case .committed(let path): "committed, on " + ReplayOutcome.pathText(path)
        case .redirected(let path): "redirected, to " + ReplayOutcome.pathText(path)
        case .refused(let code, let status): "refused with \(code) (\(status))"
        }
    }

    /// A visible path as `a/b/c` (`(nothing)` when empty).
    static func pathText(_ path: [String]) -> String {
        path.isEmpty ? "(nothing)" : path.joined(separator: "/")
    }
}
