import Switchyard

/// The actions a state document offers a person: each control of the visible screen, as the page sends it, and each
/// button of an alert shown. An event that sends text fields is tried with each of `texts` typed into them (their
/// value, or `Sample`, then what the app's guards compare with).
struct ScreenActions {
    let actions: [ExploredAction]

    init(document: JSONValue, texts: [String]) {
        var actions: [ExploredAction] = []
        let types = Self.types(document["tree"])
        let content = document["visible"]?["screen"]?["content"]?.arrayValue ?? []
        var values: [String: String] = [:]
        for element in content {
            guard let id = element["id"]?.stringValue else { continue }
            switch element["type"]?.stringValue {
            case "textField":
                let value = element["value"]?.stringValue ?? ""
                values[id] = value.isEmpty ? "Sample" : value
            case "toggle": values[id] = element["isOn"] == true ? "false" : "true"
            default: break
            }
        }
        for element in content {
            let title = element["title"]?.stringValue ?? ""
            switch element["type"]?.stringValue {
            case "button" where element["disabled"] != true, "toggle":
                if let action = element["action"] {
                    actions += Self.variants(action, values, texts, types).map { request, typed in
                        ExploredAction(.screen, "tap '\(title)'" + typed, request)
                    }
                }
            case "list":
                for row in element["rows"]?.arrayValue ?? [] {
                    guard let action = row["action"] else { continue }
                    let title = row["title"]?.stringValue ?? ""
                    actions += Self.variants(action, values, texts, types).map { request, typed in
                        ExploredAction(.screen, "tap '\(title)'" + typed, request)
                    }
                }
            default: break
            }
        }
        actions += Self.alertActions(document["tree"], types)
        self.actions = actions
    }

    /// The requests a control's action sends: one, or for an event with text fields one per text typed into them
    /// (with a label saying what was typed).
    private static func variants(
        _ action: JSONValue, _ values: [String: String], _ texts: [String], _ types: [String: String]
    ) -> [(ExploredAction.Request, String)] {
        guard let first = request(action, values, types) else { return [] }
        guard case .event(let name, let payload, let fields) = first, !fields.isEmpty else { return [(first, "")] }
        var variants = [(first, "")]
        for text in texts where !fields.values.contains(text) {
            let typed = fields.mapValues { _ in text }
            variants.append((.event(name: name, payload: payload, fields: typed), " typing '\(text)'"))
        }
        return variants
    }

    /// The request a control's action sends.
    private static func request(
        _ action: JSONValue, _ values: [String: String], _ types: [String: String]
    ) -> ExploredAction.Request? {
        switch action["type"]?.stringValue {
        case "transition":
            guard let steps = try? JSONValueDecoder().decode([Step].self, from: action["steps"] ?? []) else {
                return nil
            }
            let coordinator = action["coordinator"]?.stringValue
            return .transition(coordinator: coordinator.map { types[$0] ?? $0 }, steps: steps)
        case "event":
            guard let name = action["name"]?.stringValue else { return nil }
            var fields: [String: String] = [:]
            for field in action["fields"]?.arrayValue ?? [] {
                if let id = field.stringValue { fields[id] = values[id] ?? "Sample" }
            }
            return .event(name: name, payload: action["payload"] ?? .null, fields: fields)
        case "deepLink":
            return action["url"]?.stringValue.map { .deepLink($0) }
        default:
            return nil
        }
    }

    /// The type of each coordinator of the tree, by node id (found without recursion).
    private static func types(_ tree: JSONValue?) -> [String: String] {
        var types: [String: String] = [:]
        var pending = tree.map { [$0] } ?? []
        while let value = pending.popLast() {
            switch value {
            case .object(let members):
                if let id = members["id"]?.stringValue, let type = members["type"]?.stringValue, members["kind"] != nil
                {
                    types[id] = type
                }
                pending += members.filter { $0.key != "screen" }.map(\.value)
            case .array(let elements): pending += elements
            default: break
            }
        }
        return types
    }

    /// A button for each action of each alert the tree shows (found without recursion).
    private static func alertActions(_ tree: JSONValue?, _ types: [String: String]) -> [ExploredAction] {
        var actions: [ExploredAction] = []
        var pending = tree.map { [$0] } ?? []
        while let value = pending.popLast() {
            switch value {
            case .object(let members):
                if let alert = members["alert"], let node = members["id"]?.stringValue {
                    let title = alert["title"]?.stringValue ?? ""
                    for (choice, button) in (alert["actions"]?.arrayValue ?? []).enumerated() {
                        actions.append(
                            ExploredAction(
                                .alert, "alert '\(title)': '\(button["title"]?.stringValue ?? "")'",
                                .transition(
                                    coordinator: types[node] ?? node, steps: [Step(.respondToAlert(choice: choice))])))
                    }
                }
                pending += members.filter { $0.key != "screen" && $0.key != "alert" }.map(\.value)
            case .array(let elements): pending += elements
            default: break
            }
        }
        return actions
    }
}
