import Foundation
import Switchyard

/// What templates, conditions and data operations read: a JSON object with `input`, `data`, `item`, `payload`,
/// `fields`, `link` and `result` as far as they apply, the names bound by `let`, and which coordinators the
/// session's tree holds (for `{"open": …}` conditions).
struct TemplateContext {
    var values: [String: JSONValue]
    /// Whether a coordinator of that definition name is in the session's tree (false outside a session).
    var isOpen: (String) -> Bool = { _ in false }
    /// The template work left to the renderings made in this context and every context made from it.
    var budget = RenderBudget()

    init(_ values: [String: JSONValue] = [:]) {
        self.values = values
    }

    /// Throws 409 `renderingBudgetExceeded` when the renderings made in this context ran out of their budget:
    /// what they made is cut short, and a handler or a deep link must not act on it (its change is rolled back).
    func requireWithinBudget() throws {
        guard budget.exceeded else { return }
        throw NavigationError(
            code: "renderingBudgetExceeded", category: .conflict,
            message: "its templates need more than \(RenderBudget.allowance); nothing was applied")
    }

    /// The value at a dotted path (`data.user.name`, `item.id`, `input`), an array element selected as
    /// `data.todos[id={{input}}]`; nil where nothing is.
    func lookup(_ path: String) -> JSONValue? {
        // Byte by byte, without Foundation's string search or an array of keys: guards, bindings and templates
        // look paths up on every render (a fifth of rendering a screen declared as data, before).
        if path.utf8.contains(UInt8(ascii: "[")) {
            return DataPath(path)?.read(.object(values), self)
        }
        var current: JSONValue? = .object(values)
        var rest = path[...]
        while !rest.isEmpty {
            let end = rest.utf8.firstIndex(of: UInt8(ascii: ".")) ?? rest.endIndex
            let key = rest[..<end]
            rest = end == rest.endIndex ? rest[end...] : rest[rest.utf8.index(after: end)...]
            guard !key.isEmpty else { continue }  // `a..b` reads as `a.b`
            switch current {
            case .object(let members)?: current = members[String(key)]
            case .array(let elements)?:
                guard let index = Int(key), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default: return nil
            }
        }
        return current
    }
}
