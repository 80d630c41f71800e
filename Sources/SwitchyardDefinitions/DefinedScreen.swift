import Switchyard

/// A screen declared as data, rendered from the context each time the state is read: its route's `input`, the
/// session's `data`, its coordinator's input (`coordinator.input`), its coordinator's and its own bindings.
struct DefinedScreen: Screen {
    let definition: ScreenDefinition
    let input: JSONValue?
    let owner: any DefinedCoordinator
    /// Whether a condition it tests (`open`) reads which coordinators the tree holds, not only the data.
    private let readsTree: Bool

    init(definition: ScreenDefinition, input: JSONValue?, owner: any DefinedCoordinator) {
        self.definition = definition
        self.input = input
        self.owner = owner
        let conditions =
            definition.content.compactMap(\.when)
            + (definition.bindings + owner.context.definition.bindings).compactMap(\.filter)
        readsTree = conditions.contains { !$0.coordinators.isEmpty }
    }

    /// The session data's revision: the rest of what it reads (its input, its coordinator's input, the definition)
    /// never changes. None when it tests which coordinators are open: the tree changes without the data.
    var contentRevision: Int? {
        readsTree ? nil : owner.context.data.revision
    }

    /// The screen from the context of the moment; its templates share one ``RenderBudget``, and a rendering that
    /// runs out of it is marked (``ScreenContent/failure``), so that no version shows it cut short.
    func render() -> ScreenContent {
        let scope = owner.templateContext(["input": input ?? .null]).binding(definition.bindings)
        var content = ScreenContent(
            title: definition.title.render(scope), background: definition.background?.render(scope),
            content: definition.content.flatMap { entry in
                entry.when?.holds(in: scope) == false ? [] : render(entry.element, scope)
            })
        if scope.budget.exceeded {
            content.failure = ScreenRenderingFailure(
                reason: "the screen '\(definition.name)' needs more than \(RenderBudget.allowance)")
        }
        return content
    }

    private func render(_ element: ElementDefinition, _ scope: TemplateContext) -> [ScreenElement] {
        switch element {
        case .text(let text, let style):
            return [.text(text.render(scope), style: style)]
        case .image(let name, let color):
            return [.image(systemName: name.render(scope), color: color?.render(scope))]
        case .textField(let id, let label, let placeholder, let value, let secure):
            return [
                .textField(
                    id: id, label: label.render(scope), placeholder: placeholder.render(scope),
                    value: value.render(scope), secure: secure)
            ]
        case .toggle(let id, let title, let isOn, let action):
            return [
                .toggle(
                    id: id, title: title.render(scope), isOn: Self.isTrue(isOn.render(scope)),
                    action: Self.action(action, scope))
            ]
        case .button(let title, let role, let disabled, let action):
            return [
                .button(
                    title.render(scope), role: role, disabled: disabled.map { Self.isTrue($0.render(scope)) } ?? false,
                    action: Self.action(action, scope))
            ]
        case .list(let rows):
            return [.list(rows.map { Self.row($0, scope) })]
        case .boundList(let items, let row):
            guard case .array(let elements)? = scope.lookup(items) else { return [.list([])] }
            var rows: [ListRow] = []
            for element in elements {
                guard scope.budget.step() else { break }  // the budget ran out: no more rows are made
                var itemScope = scope
                itemScope.values["item"] = element
                rows.append(Self.row(row, itemScope))
            }
            return [.list(rows)]
        }
    }

    private static func row(_ row: ElementDefinition.Row, _ scope: TemplateContext) -> ListRow {
        ListRow(
            id: row.id.render(scope), title: row.title.render(scope), subtitle: nonEmpty(row.subtitle, scope),
            icon: nonEmpty(row.icon, scope), badge: nonEmpty(row.badge, scope),
            action: row.action.map { action($0, scope) })
    }

    private static func nonEmpty(_ template: Template?, _ scope: TemplateContext) -> String? {
        guard let text = template?.render(scope), !text.isEmpty else { return nil }
        return text
    }

    /// The action in `scope`; a chain whose rendered steps are not valid (the data made them so) does nothing.
    private static func action(_ action: ActionDefinition, _ scope: TemplateContext) -> ScreenAction {
        (try? action.action(scope)) ?? .transition([])
    }

    /// A flag's rendered text: `true` (any case, spaces around) is true; anything else is false.
    private static func isTrue(_ text: String) -> Bool {
        text.trimmingCharacters(in: .whitespaces).lowercased() == "true"
    }
}
