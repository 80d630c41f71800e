import Switchyard

/// One element of a screen, written as the state document writes it (`{"type": "text", "text": "Hi {{input}}"}`),
/// its strings templates. A list either has fixed `rows`, or `items` (a context path to an array) and a `row`
/// rendered for each element, with the element as `item`.
enum ElementDefinition: Sendable, Hashable {
    struct Row: Sendable, Hashable {
        let id: Template
        let title: Template
        let subtitle: Template?
        let icon: Template?
        let badge: Template?
        let action: ActionDefinition?
    }

    case text(Template, style: ScreenElement.TextStyle)
    case image(Template, color: Template?)
    case textField(id: String, label: Template, placeholder: Template, value: Template, secure: Bool)
    case toggle(id: String, title: Template, isOn: Template, action: ActionDefinition)
    case button(Template, role: ScreenElement.ButtonRole, disabled: Template?, action: ActionDefinition)
    case list(rows: [Row])
    case boundList(items: String, row: Row)

    static let types = ["text", "image", "textField", "toggle", "button", "list"]

    static func read(_ value: JSONValue, at pointer: String, _ reader: DefinitionReader) -> ElementDefinition? {
        let allowed: [String: [String]] = [
            "text": ["text", "style"], "image": ["systemName", "color"],
            "textField": ["id", "label", "placeholder", "value", "secure"],
            "toggle": ["id", "title", "isOn", "action"],
            "button": ["title", "role", "disabled", "action"], "list": ["rows", "items", "row"],
        ]
        guard case .object(let raw) = value,
            let type = reader.choice(raw["type"] ?? .null, at: Pointer.append(pointer, "type"), "element type", types)
        else {
            if case .object = value {} else { _ = reader.object(value, at: pointer, "an element", allowed: []) }
            return nil
        }
        let required: [String: [String]] = [
            "text": ["text"], "image": ["systemName"], "textField": ["id", "label"],
            "toggle": ["id", "title", "isOn", "action"], "button": ["title", "action"], "list": [],
        ]
        guard
            let members = reader.object(
                value, at: pointer, Article.withIndefinite("\(type) element"),
                allowed: ["type", "when"] + (allowed[type] ?? []),
                required: required[type] ?? [])
        else { return nil }
        func template(_ name: String) -> Template? {
            reader.template(members[name], at: Pointer.append(pointer, name), name)
        }
        func flag(_ name: String) -> Template? {
            switch members[name] {
            case .bool(let on)?: return Template(literal: on ? "true" : "false")
            default: return template(name)
            }
        }
        let action = ActionDefinition.read(members["action"], at: Pointer.append(pointer, "action"), reader)
        switch type {
        case "text":
            let style = reader.choice(
                members["style"] ?? .string("body"), at: Pointer.append(pointer, "style"), "text style",
                ["title", "headline", "body", "caption"]
            ).flatMap(ScreenElement.TextStyle.init(rawValue:))
            return template("text").map { .text($0, style: style ?? .body) }
        case "image":
            return template("systemName").map { .image($0, color: template("color")) }
        case "textField":
            guard let id = reader.name(members["id"], at: Pointer.append(pointer, "id"), "field id"),
                let label = template("label")
            else { return nil }
            return .textField(
                id: id, label: label, placeholder: template("placeholder") ?? Template(literal: ""),
                value: template("value") ?? Template(literal: ""),
                secure: reader.bool(members["secure"], at: Pointer.append(pointer, "secure"), "secure") ?? false)
        case "toggle":
            guard let id = reader.name(members["id"], at: Pointer.append(pointer, "id"), "field id"),
                let title = template("title"), let isOn = flag("isOn"), let action
            else { return nil }
            return .toggle(id: id, title: title, isOn: isOn, action: action)
        case "button":
            let role = reader.choice(
                members["role"] ?? .string("primary"), at: Pointer.append(pointer, "role"), "button role",
                ["primary", "secondary", "destructive"]
            ).flatMap(ScreenElement.ButtonRole.init(rawValue:))
            guard let title = template("title"), let action else { return nil }
            return .button(title, role: role ?? .primary, disabled: flag("disabled"), action: action)
        default:
            return readList(members, at: pointer, reader)
        }
    }

    private static func readList(
        _ members: [String: JSONValue], at pointer: String, _ reader: DefinitionReader
    ) -> ElementDefinition? {
        switch (members["rows"], members["items"], members["row"]) {
        case (let rows?, nil, nil):
            guard let list = reader.array(rows, at: Pointer.append(pointer, "rows"), "rows") else { return nil }
            return .list(
                rows: list.enumerated().compactMap {
                    readRow($1, at: Pointer.append(Pointer.append(pointer, "rows"), $0), reader)
                })
        case (nil, let items?, let row?):
            guard let path = reader.string(items, at: Pointer.append(pointer, "items"), "context path"),
                let row = readRow(row, at: Pointer.append(pointer, "row"), reader)
            else { return nil }
            return .boundList(items: path, row: row)
        default:
            reader.error(
                "invalidList", at: pointer, "a list has either 'rows', or 'items' and 'row'",
                suggestion:
                    "\"items\": \"data.todos\", \"row\": {\"id\": \"{{item.id}}\", \"title\": \"{{item.name}}\"}")
            return nil
        }
    }

    private static func readRow(_ value: JSONValue, at pointer: String, _ reader: DefinitionReader) -> Row? {
        guard
            let members = reader.object(
                value, at: pointer, "a row", allowed: ["id", "title", "subtitle", "icon", "badge", "action"],
                required: ["id", "title"])
        else { return nil }
        func template(_ name: String) -> Template? {
            reader.template(members[name], at: Pointer.append(pointer, name), name)
        }
        guard let id = template("id"), let title = template("title") else { return nil }
        return Row(
            id: id, title: title, subtitle: template("subtitle"), icon: template("icon"), badge: template("badge"),
            action: ActionDefinition.read(members["action"], at: Pointer.append(pointer, "action"), reader))
    }
}
