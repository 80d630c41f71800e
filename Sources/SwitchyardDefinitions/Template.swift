import Foundation
import Switchyard

/// Text with `{{…}}` tags (Mustache, rendered as plain text: nothing is HTML-escaped), rendered with the context of
/// the moment: `input` (the route's input), `data` (the session's data), `item` (a list row's element), `payload`
/// and `fields` (a flow event's), `link` (a deep link's parameters), `result` (a delivered result).
///
/// Parsed once, when the definition is read (``MustacheParser``), within ``maxLength`` bytes and
/// ``maxSectionDepth`` nested sections; rendered (``MustacheRenderer``) within the context's ``RenderBudget``.
struct Template: Sendable, Hashable {
    let text: String
    /// The parsed template; nil for text without tags.
    private let nodes: [MustacheNode]?
    /// The context path when the whole text is one tag (`{{data.user}}`): its value is taken as JSON, not as text.
    let wholePath: String?

    /// Text without tags, as it is.
    init(literal text: String) {
        self.text = text
        nodes = nil
        wholePath = nil
    }

    /// The deepest nesting of sections a template may have.
    static let maxSectionDepth = 32
    /// The longest template.
    static let maxLength = 64 * 1024

    init(_ text: String) throws(TemplateError) {
        self.text = text
        guard text.contains("{{") else {
            nodes = nil
            wholePath = nil
            return
        }
        guard text.utf8.count <= Self.maxLength else { throw .tooLong(Self.maxLength) }
        nodes = try MustacheParser.parse(text, maxDepth: Self.maxSectionDepth)
        wholePath = Self.wholePath(of: text)
    }

    /// The path of a template that is one variable tag, spaces allowed (`{{data.user}}`, `{{ item.id }}`); nil for
    /// anything else, `{{.}}` included (the whole context is never copied).
    private static func wholePath(of text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("{{"), trimmed.hasSuffix("}}"), trimmed.count > 4 else { return nil }
        let inner = trimmed.dropFirst(2).dropLast(2).trimmingCharacters(in: .whitespaces)
        guard let first = inner.first, first.isLetter || first == "_",
            inner.allSatisfy({ $0.isLetter || $0.isNumber || "_.-".contains($0) })
        else { return nil }
        return inner
    }

    /// The text with its tags filled in from `context`, within the context's budget (text without tags takes a step
    /// and its bytes too: nothing is rendered for free).
    func render(_ context: TemplateContext) -> String {
        guard let nodes else {
            guard context.budget.step(), context.budget.write(text.utf8.count) == text.utf8.count else { return "" }
            return text
        }
        var renderer = MustacheRenderer(root: .object(context.values), budget: context.budget)
        renderer.render(nodes)
        return String(decoding: renderer.output, as: UTF8.self)
    }

    /// The value: the JSON at ``wholePath`` for a one-tag template, else the rendered text.
    func value(_ context: TemplateContext) -> JSONValue {
        if let wholePath { return context.lookup(wholePath) ?? .null }
        return .string(render(context))
    }

    /// Whether it has a tag (text without one renders as itself in every context).
    var hasTags: Bool { nodes != nil }

    /// The parsed template (no nodes for text without tags).
    var parsed: [MustacheNode] { nodes ?? [] }

    /// The context paths its tags read (`data.user.name`), for the check.
    var paths: [String] {
        var found: [String] = []
        var pending = nodes ?? []
        while let node = pending.popLast() {
            switch node {
            case .text: break
            case .variable(let name): if !name.keys.isEmpty { found.append(name.keys.joined(separator: ".")) }
            case .section(let name, _, let children):
                if !name.keys.isEmpty { found.append(name.keys.joined(separator: ".")) }
                pending += children
            }
        }
        return found
    }

    static func == (lhs: Template, rhs: Template) -> Bool { lhs.text == rhs.text }
    func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
