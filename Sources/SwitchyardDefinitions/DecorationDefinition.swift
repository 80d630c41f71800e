import Switchyard

/// How a coordinator declared as data decorates what it renders (Stinsen's `customize`, Jumper's
/// `configure(controller:)`): `{"tint": "#5856d6", "title": "…", "navigationBarHidden": true, "tabBarStyle": "…"}`,
/// its strings templates.
struct DecorationDefinition: Sendable, Hashable {
    let title: Template?
    let tint: Template?
    let tabBarStyle: Template?
    let navigationBarHidden: Bool?

    /// Sets what it declares on `decoration`, rendered in `scope`.
    func apply(to decoration: inout Decoration, _ scope: TemplateContext) {
        if let title { decoration.title = title.render(scope) }
        if let tint { decoration.tint = tint.render(scope) }
        if let tabBarStyle { decoration.tabBarStyle = tabBarStyle.render(scope) }
        if let navigationBarHidden { decoration.navigationBarHidden = navigationBarHidden }
    }

    static func read(_ value: JSONValue, at pointer: String, _ reader: DefinitionReader) -> DecorationDefinition? {
        guard
            let members = reader.object(
                value, at: pointer, "a decoration", allowed: ["title", "tint", "tabBarStyle", "navigationBarHidden"])
        else { return nil }
        func template(_ name: String) -> Template? {
            reader.template(members[name], at: Pointer.append(pointer, name), name)
        }
        return DecorationDefinition(
            title: template("title"), tint: template("tint"), tabBarStyle: template("tabBarStyle"),
            navigationBarHidden: reader.bool(
                members["navigationBarHidden"], at: Pointer.append(pointer, "navigationBarHidden"),
                "navigationBarHidden"))
    }
}
