import Switchyard

/// What a control does, as the state document writes it: `{"type": "transition", "steps": [...]}` (from the
/// coordinator that owns the screen), `{"type": "event", "name": "login", "payload": {...}, "fields": ["user"]}` or
/// `{"type": "deepLink", "url": "mail://message/{{item.id}}"}`.
enum ActionDefinition: Sendable, Hashable {
    case transition([StepTemplate])
    case event(name: String, payload: JSONTemplate, fields: [String])
    case deepLink(Template)

    func action(_ context: TemplateContext) throws -> ScreenAction {
        switch self {
        case .transition(let steps): .transition(try steps.map { try $0.step(context) })
        case .event(let name, let payload, let fields): .event(name, payload: payload.value(context), fields: fields)
        case .deepLink(let url): .deepLink(url.render(context))
        }
    }

    var paths: [String] {
        switch self {
        case .transition(let steps): steps.flatMap(\.json.paths)
        case .event(_, let payload, _): payload.paths
        case .deepLink(let url): url.paths
        }
    }

    static func read(_ value: JSONValue?, at pointer: String, _ reader: DefinitionReader) -> ActionDefinition? {
        guard let value,
            let members = reader.object(
                value, at: pointer, "an action", allowed: ["type", "steps", "name", "payload", "fields", "url"],
                required: ["type"]),
            let type = reader.choice(
                members["type"], at: Pointer.append(pointer, "type"), "action type",
                ["transition", "event", "deepLink"])
        else { return nil }
        if type != "deepLink", members["url"] != nil {
            reader.error("unknownMember", at: Pointer.append(pointer, "url"), "only a deepLink action has a 'url'")
        }
        if type == "deepLink" {
            for name in ["steps", "name", "payload", "fields"] where members[name] != nil {
                reader.error("unknownMember", at: Pointer.append(pointer, name), "a deepLink action has no '\(name)'")
            }
            guard let url = reader.template(members["url"], at: Pointer.append(pointer, "url"), "link") else {
                if members["url"] == nil { reader.error("missingMember", at: pointer, "a deepLink action needs 'url'") }
                return nil
            }
            return .deepLink(url)
        }
        if type == "transition" {
            for name in ["name", "payload", "fields"] where members[name] != nil {
                reader.error("unknownMember", at: Pointer.append(pointer, name), "a transition action has no '\(name)'")
            }
            return .transition(
                StepTemplate.readList(members["steps"] ?? .array([]), at: Pointer.append(pointer, "steps"), reader))
        }
        if members["steps"] != nil {
            reader.error("unknownMember", at: Pointer.append(pointer, "steps"), "an event action has no 'steps'")
        }
        guard let name = reader.name(members["name"], at: Pointer.append(pointer, "name"), "event name") else {
            if members["name"] == nil { reader.error("missingMember", at: pointer, "an event action needs 'name'") }
            return nil
        }
        let payload = members["payload"].flatMap {
            JSONTemplate.read($0, at: Pointer.append(pointer, "payload"), reader)
        }
        let fields =
            reader.array(members["fields"], at: Pointer.append(pointer, "fields"), "field ids")?.enumerated().compactMap
        {
            reader.name($1, at: Pointer.append(Pointer.append(pointer, "fields"), $0), "field id")
        } ?? []
        return .event(name: name, payload: payload ?? .literal(.null), fields: fields)
    }
}
