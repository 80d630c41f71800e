/// The most template work a screen can ask for, as `check` estimates it against the ``RenderBudget``: each section
/// as if its value were a list of ``sectionLength`` elements, each bound list as ``listLength`` rows. Counted in
/// floating point, so that sections nested over lists (whose work is the product of their lengths) never overflow.
enum RenderingEstimate {
    /// The elements a section is assumed to repeat for.
    static let sectionLength = 10.0
    /// The rows a bound list is assumed to have.
    static let listLength = 100.0

    /// The steps rendering `screen` may take at the assumed lengths.
    static func steps(_ screen: ScreenDefinition) -> Double {
        var total = steps(screen.title) + (screen.background.map(steps) ?? 0)
        for element in screen.elements {
            switch element {
            case .text(let text, _): total += steps(text)
            case .image(let name, let color): total += steps(name) + (color.map(steps) ?? 0)
            case .textField(_, let label, let placeholder, let value, _):
                total += steps(label) + steps(placeholder) + steps(value)
            case .toggle(_, let title, let isOn, _): total += steps(title) + steps(isOn)
            case .button(let title, _, let disabled, _): total += steps(title) + (disabled.map(steps) ?? 0)
            case .list(let rows): total += rows.map(steps).reduce(0, +)
            case .boundList(_, let row): total += listLength * (1 + steps(row))
            }
        }
        return total
    }

    private static func steps(_ row: ElementDefinition.Row) -> Double {
        [row.id, row.title, row.subtitle, row.icon, row.badge].compactMap { $0 }.map(steps).reduce(0, +)
    }

    static func steps(_ template: Template) -> Double {
        steps(template.parsed)
    }

    private static func steps(_ nodes: [MustacheNode]) -> Double {
        nodes.reduce(0) { total, node in
            switch node {
            case .text, .variable: total + 1
            case .section(_, inverted: true, let children): total + 1 + steps(children)
            case .section(_, inverted: false, let children): total + 1 + sectionLength * (1 + steps(children))
            }
        }
    }
}
