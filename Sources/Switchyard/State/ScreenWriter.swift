/// Writes screen elements as JSON, resolving actions against the item and coordinator that own the screen.
struct ScreenWriter {
    /// Where a typed action's route is: the id of the coordinator it belongs to and the route's name.
    typealias RouteLocation = (coordinator: String, route: String)

    /// The owner's and the item's ids as the wire writes them, made once per screen.
    let owner: String
    let item: String
    /// The first typed action whose route no coordinator holding the screen has: the screen is not shown.
    private(set) var unplaced: RouteAction?

    init(owner: String, item: String) {
        self.owner = owner
        self.item = item
    }

    /// Writes `element`; `locate` finds the route of each typed action it holds.
    mutating func write(
        _ element: ScreenElement, into writer: inout JSONWriter, locate: (RouteAction) -> RouteLocation?
    ) {
        writer.beginObject()
        switch element {
        case .text(let text, let style):
            writer.member("type", ScreenElement.Kind.text.rawValue)
            writer.member("text", text)
            writer.member("style", style.rawValue)
        case .image(let name, let color):
            writer.member("type", ScreenElement.Kind.image.rawValue)
            writer.member("systemName", name)
            writer.member("color", ifPresent: color)
        case .textField(let id, let label, let placeholder, let value, let secure):
            writer.member("type", ScreenElement.Kind.textField.rawValue)
            writer.member("id", id)
            writer.member("label", label)
            writer.member("placeholder", placeholder)
            writer.member("value", value)
            writer.member("secure", secure)
        case .toggle(let id, let title, let isOn, let action):
            writer.member("type", ScreenElement.Kind.toggle.rawValue)
            writer.member("id", id)
            writer.member("title", title)
            writer.member("isOn", isOn)
            writer.key("action")
            write(action, into: &writer, locate: locate)
        case .button(let title, let role, let disabled, let action):
            writer.member("type", ScreenElement.Kind.button.rawValue)
            writer.member("title", title)
            writer.member("role", role.rawValue)
            writer.member("disabled", disabled)
            writer.key("action")
            write(action, into: &writer, locate: locate)
        case .list(let rows):
            writer.member("type", ScreenElement.Kind.list.rawValue)
            writer.key("rows")
            writer.beginArray()
            for index in rows.indices { write(rows[index], into: &writer, locate: locate) }
            writer.endArray()
        }
        writer.endObject()
    }

    private mutating func write(
        _ row: ListRow, into writer: inout JSONWriter, locate: (RouteAction) -> RouteLocation?
    ) {
        writer.beginObject()
        writer.member("id", row.id)
        writer.member("title", row.title)
        writer.member("subtitle", ifPresent: row.subtitle)
        writer.member("icon", ifPresent: row.icon)
        writer.member("badge", ifPresent: row.badge)
        if let action = row.action {
            writer.key("action")
            write(action, into: &writer, locate: locate)
        }
        writer.endObject()
    }

    private mutating func write(
        _ action: ScreenAction, into writer: inout JSONWriter, locate: (RouteAction) -> RouteLocation?
    ) {
        writer.beginObject()
        switch action {
        case .transition(let steps):
            writer.member("type", ScreenAction.Kind.transition.rawValue)
            writer.member("coordinator", owner)
            writer.key("steps")
            writer.beginArray()
            for index in steps.indices { write(steps[index], into: &writer) }
            writer.endArray()
        case .open(let route):
            let location = locate(route)
            if location == nil { unplaced = unplaced ?? route }
            writer.member("type", ScreenAction.Kind.transition.rawValue)
            writer.member("coordinator", location?.coordinator ?? owner)
            writer.key("steps")
            writer.beginArray()
            if let location { write(route.step(route: location.route), into: &writer) }
            writer.endArray()
        case .event(let name, let payload, let fields):
            writer.member("type", ScreenAction.Kind.event.rawValue)
            writer.member("from", item)
            writer.member("name", name)
            writer.member("payload", payload)
            writer.key("fields")
            writer.beginArray()
            for field in fields { writer.string(field) }
            writer.endArray()
        case .deepLink(let url):
            writer.member("type", ScreenAction.Kind.deepLink.rawValue)
            writer.member("url", url)
        }
        writer.endObject()
    }

    private func write(_ step: Step, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("action", step.action.rawValue)
        writer.member("route", ifPresent: step.route)
        if let input = step.input { writer.member("input", input) }
        if let animated = step.animated { writer.member("animated", animated) }
        writer.member("presentation", ifPresent: step.presentation?.rawValue)
        writer.member("match", ifPresent: step.match?.rawValue)
        writer.member("item", ifPresent: step.item)
        if let routes = step.routes {
            writer.key("routes")
            writer.beginArray()
            for reference in routes {
                writer.beginObject()
                writer.member("route", reference.route)
                if let input = reference.input { writer.member("input", input) }
                writer.endObject()
            }
            writer.endArray()
        }
        writer.member("title", ifPresent: step.title)
        writer.member("message", ifPresent: step.message)
        if let actions = step.actions {
            writer.key("actions")
            writer.beginArray()
            for action in actions { action.write(into: &writer) }
            writer.endArray()
        }
        if let choice = step.choice { writer.member("choice", choice) }
        if let result = step.result { writer.member("result", result) }
        writer.endObject()
    }
}
