import Foundation
import Mustache
import Switchyard

/// Text with `{{…}}` tags (Mustache, rendered as plain text: nothing is HTML-escaped), rendered with the context of
/// the moment: `input` (the route's input), `data` (the session's data), `item` (a list row's element), `payload`
/// and `fields` (a flow event's), `link` (a deep link's parameters), `result` (a delivered result).
struct Template: Sendable, Hashable {
    let text: String
    private let compiled: MustacheTemplate?
    /// The context path when the whole text is one tag (`{{data.user}}`): its value is taken as JSON, not as text.
    let wholePath: String?

    /// Text without tags, as it is.
    init(literal text: String) {
        self.text = text
        compiled = nil
        wholePath = nil
    }

    /// The deepest nesting of `{{#…}}`/`{{^…}}` sections a template may have (the renderer's parser recurses).
    static let maxSectionDepth = 32
    /// The longest template.
    static let maxLength = 64 * 1024

    init(_ text: String) throws {
        self.text = text
        if text.contains("{{") {
            guard text.utf8.count <= Self.maxLength else { throw TemplateError.tooLong(Self.maxLength) }
            var depth = 0
            var rest = Substring(text)
            while let open = rest.range(of: "{{") {
                rest = rest[open.upperBound...]
                let tag = rest.drop { $0 == " " }
                if tag.hasPrefix("#") || tag.hasPrefix("^") {
                    depth += 1
                    if depth > Self.maxSectionDepth { throw TemplateError.tooDeep(Self.maxSectionDepth) }
                } else if tag.hasPrefix("/") {
                    depth -= 1
                }
            }
            compiled = try MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + text)
            wholePath = Self.wholePath(of: text)
        } else {
            compiled = nil
            wholePath = nil
        }
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

    /// The text with its tags filled in from `context`.
    func render(_ context: TemplateContext) -> String {
        guard let compiled else { return text }
        return compiled.render(context.mustacheValue)
    }

    /// The value: the JSON at ``wholePath`` for a one-tag template, else the rendered text.
    func value(_ context: TemplateContext) -> JSONValue {
        if let wholePath { return context.lookup(wholePath) ?? .null }
        return .string(render(context))
    }

    /// The context paths its tags read (`data.user.name`), for the check.
    var paths: [String] {
        guard compiled != nil else { return [] }
        var found: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            let tag = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            let name = tag.drop(while: { "#^/&{!>%".contains($0) }).trimmingCharacters(
                in: CharacterSet(charactersIn: " }"))
            if let open = name.firstIndex(of: "("), name.hasSuffix(")") {
                found.append(String(name[name.index(after: open)..<name.index(before: name.endIndex)]))
            } else if !name.isEmpty, name != "." {
                found.append(name)
            }
            rest = rest[close.upperBound...]
        }
        return found
    }

    static func == (lhs: Template, rhs: Template) -> Bool { lhs.text == rhs.text }
    func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
