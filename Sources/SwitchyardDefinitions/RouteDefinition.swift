import Switchyard

/// A route of a coordinator declared as data, the counterpart of `@Root`, `@Route` and `@TabRoute`:
/// `{"kind": "route", "target": "Todo", "presentation": "push", "input": "string"}`. `target` names a screen or a
/// coordinator of the definition; `kind` is `root`, `route` (the default) or `tab`.
struct RouteDefinition: Sendable {
    struct Item: Sendable, Hashable {
        let title: Template
        let icon: Template
        let badge: Template?
    }

    let name: String
    let kind: RouteKind
    let target: String
    let style: RouteStyle
    let input: ValueType?
    let item: Item?
    let guardRule: GuardDefinition?
    let onResult: Reaction?
    /// A tab's steps, run from its tabs coordinator when the selected tab is tapped again.
    let onReselect: [StepTemplate]

    static let members = [
        "kind", "target", "presentation", "dismissible", "input", "item", "guard", "onResult", "onReselect",
    ]

    static func read(
        _ name: String, _ value: JSONValue, at pointer: String, _ reader: DefinitionReader
    )
        -> RouteDefinition?
    {
        guard let members = reader.object(value, at: pointer, "a route", allowed: Self.members, required: ["target"])
        else { return nil }
        let kind =
            reader.choice(
                members["kind"] ?? .string("route"), at: Pointer.append(pointer, "kind"), "route kind",
                [
                    "root", "route", "tab",
                ]
            ).flatMap(RouteKind.init(rawValue:)) ?? .route
        let presentation =
            reader.choice(
                members["presentation"] ?? .string("push"), at: Pointer.append(pointer, "presentation"), "presentation",
                Presentation.allCases.map(\.rawValue)
            ).flatMap(Presentation.init(rawValue:)) ?? .push
        let dismissible = reader.bool(members["dismissible"], at: Pointer.append(pointer, "dismissible"), "dismissible")
        if kind != .route {
            for member in ["presentation", "dismissible", "guard", "onResult"] where members[member] != nil {
                reader.error(
                    "unknownMember", at: Pointer.append(pointer, member),
                    "\(Article.withIndefinite(kind.rawValue)) route has no '\(member)' (only a route of kind 'route' does)"
                )
            }
        }
        for member in ["item", "onReselect"] where kind != .tab && members[member] != nil {
            reader.error("unknownMember", at: Pointer.append(pointer, member), "only a tab route has '\(member)'")
        }
        var item: Item?
        if kind == .tab {
            let at = Pointer.append(pointer, "item")
            if let object = reader.object(
                members["item"] ?? .null, at: at, "a tab item", allowed: ["title", "icon", "badge"],
                required: ["title", "icon"]),
                let title = reader.template(object["title"], at: Pointer.append(at, "title"), "title"),
                let icon = reader.template(object["icon"], at: Pointer.append(at, "icon"), "icon")
            {
                item = Item(
                    title: title, icon: icon,
                    badge: reader.template(object["badge"], at: Pointer.append(at, "badge"), "badge"))
            } else if members["item"] == nil {
                reader.error("missingMember", at: pointer, "a tab route needs an 'item' (title and icon)")
            }
        }
        guard let target = reader.name(members["target"], at: Pointer.append(pointer, "target"), "target name") else {
            return nil
        }
        var onResult: Reaction?
        if let value = members["onResult"] {
            let at = Pointer.append(pointer, "onResult")
            if let object = reader.object(value, at: at, "a result handler", allowed: Reaction.members) {
                onResult = Reaction.read(object, at: at, reader)
            }
        }
        return RouteDefinition(
            name: name, kind: kind, target: target,
            style: RouteStyle(presentation: presentation, dismissible: dismissible ?? true),
            input: members["input"].flatMap { ValueType.read($0, at: Pointer.append(pointer, "input"), reader) },
            item: item,
            guardRule: members["guard"].flatMap {
                GuardDefinition.read($0, at: Pointer.append(pointer, "guard"), reader)
            },
            onResult: onResult,
            onReselect: StepTemplate.readList(members["onReselect"], at: Pointer.append(pointer, "onReselect"), reader))
    }
}
