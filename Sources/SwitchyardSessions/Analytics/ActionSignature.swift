import Switchyard
import SwitchyardJSON

/// What a request asked, in route names and action kinds only: how traffic coverage tells one transition from
/// another (docs/analytics.md#coverage). Inputs, fields, payloads, coordinator and item ids, and deep links' paths
/// are left out: they hold data, and the same transition is taken with many of them.
///
/// - a transition (`POST …/transitions`): each step's action and route, `push todo`, `selectTab todos`, `back`,
///   several steps joined by `, ` (`child, push todo`); a `pushStack` lists its routes, `respondToAlert` its choice;
///   a tap on a tab (`selectTab`) reads as the step that selects it (`focus todos`), as explorations try it;
/// - a flow event (`POST …/events`): `event login`;
/// - a deep link (`POST …/deeplinks`): `open app://host`, its scheme and host.
public enum ActionSignature {
    /// The signature of a request sent to `endpoint` (`transitions`, `events` or `deeplinks`) with `body`; nil for
    /// anything else.
    public static func of(endpoint: String, body: JSONValue) -> String? {
        switch endpoint {
        case "transitions":
            let steps = body["steps"]?.arrayValue ?? [body]
            let words = steps.compactMap(step)
            return words.isEmpty || words.count != steps.count ? nil : words.joined(separator: ", ")
        case "events":
            return body["name"]?.stringValue.map { "event \($0)" }
        case "deeplinks":
            guard let url = body["url"]?.stringValue else { return nil }
            return "open " + origin(of: url)
        default:
            return nil
        }
    }

    /// The signature of a stored change: nil for those no client asked for as such (a guard's redirect, a
    /// restore, a migration, a pending deep link completed) and for a request the store did not keep whole.
    public static func of(source: HistorySource, request: [UInt8]) -> String? {
        let endpoint: String
        switch source {
        case .api, .gesture: endpoint = "transitions"
        case .event: endpoint = "events"
        case .deeplink: endpoint = "deeplinks"
        case .guard, .restore, .migration: return nil
        }
        guard let body = try? JSONValue(parsing: request) else { return nil }
        return of(endpoint: endpoint, body: body)
    }

    private static func step(_ value: JSONValue) -> String? {
        guard var action = value["action"]?.stringValue else { return nil }
        if action == "selectTab" { action = "focus" }
        if let route = value["route"]?.stringValue { return "\(action) \(route)" }
        if let routes = value["routes"]?.arrayValue {
            let names = routes.map { $0["route"]?.stringValue ?? $0.stringValue ?? "?" }
            return "\(action) \(names.joined(separator: " "))"
        }
        if case .number(let choice)? = value["choice"] { return "\(action) \(Int(choice))" }
        return action
    }

    /// `scheme://host` of a URL (its path and query hold data).
    private static func origin(of url: String) -> String {
        guard let colon = url.firstIndex(of: ":") else { return url.split(separator: "/").first.map(String.init) ?? "" }
        let scheme = url[..<colon]
        var rest = url[url.index(after: colon)...]
        while rest.first == "/" { rest = rest.dropFirst() }
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return "\(scheme)://\(host)"
    }
}
