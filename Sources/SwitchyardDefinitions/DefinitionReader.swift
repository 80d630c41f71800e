import Switchyard

/// Reads an app definition's JSON into its model, collecting a diagnostic for each member that is missing, unknown or
/// of the wrong type, with its JSON Pointer. Reading goes on after a finding, so one pass reports all of them.
final class DefinitionReader {
    private(set) var diagnostics: [DefinitionDiagnostic] = []

    func error(_ code: String, at pointer: String, _ message: String, suggestion: String? = nil) {
        diagnostics.append(DefinitionDiagnostic(.error, code, at: pointer, message, suggestion: suggestion))
    }

    func warning(_ code: String, at pointer: String, _ message: String, suggestion: String? = nil) {
        diagnostics.append(DefinitionDiagnostic(.warning, code, at: pointer, message, suggestion: suggestion))
    }

    /// The members of `value`, an object whose members are all `allowed` and which has every `required` one; nil
    /// (with diagnostics) when it is not an object. Unknown members are reported and left out.
    func object(
        _ value: JSONValue?, at pointer: String, _ what: String, allowed: [String], required: [String] = []
    ) -> [String: JSONValue]? {
        guard let value else { return nil }
        guard case .object(let members) = value else {
            wrongType(value, at: pointer, expected: "an object (\(what))")
            return nil
        }
        var known: [String: JSONValue] = [:]
        for (name, member) in members.sorted(by: { $0.key < $1.key }) {
            if allowed.contains(name) || name == "$comment" {
                known[name] = member
            } else {
                error(
                    "unknownMember", at: Pointer.append(pointer, name), "\(what) has no member '\(name)'",
                    suggestion: Spelling.nearest(to: name, in: allowed).map { "did you mean '\($0)'?" }
                        ?? "allowed: \(allowed.joined(separator: ", "))")
            }
        }
        for name in required where members[name] == nil {
            error(
                "missingMember", at: pointer, "\(what) needs the member '\(name)'",
                suggestion: "add \"\(name)\"")
        }
        return known
    }

    func string(_ value: JSONValue?, at pointer: String, _ what: String) -> String? {
        guard let value else { return nil }
        guard case .string(let text) = value else {
            wrongType(value, at: pointer, expected: "a string (\(what))")
            return nil
        }
        return text
    }

    /// A name: a non-empty string of letters, digits, `_`, `-` and `.`, starting with a letter or `_`.
    func name(_ value: JSONValue?, at pointer: String, _ what: String) -> String? {
        guard let text = string(value, at: pointer, what) else { return nil }
        guard Self.isName(text) else {
            error(
                "invalidName", at: pointer, "'\(text)' is not a valid \(what)",
                suggestion: "use letters, digits, '_', '-' or '.', starting with a letter")
            return nil
        }
        return text
    }

    static func isName(_ text: String) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter || first == "_", text.count <= 100 else {
            return false
        }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) }
    }

    func bool(_ value: JSONValue?, at pointer: String, _ what: String) -> Bool? {
        guard let value else { return nil }
        guard case .bool(let flag) = value else {
            wrongType(value, at: pointer, expected: "true or false (\(what))")
            return nil
        }
        return flag
    }

    func integer(_ value: JSONValue?, at pointer: String, _ what: String, in range: ClosedRange<Int>) -> Int? {
        guard let value else { return nil }
        guard case .number(let number) = value, let integer = Int(exactly: number), range.contains(integer) else {
            wrongType(
                value, at: pointer, expected: "an integer from \(range.lowerBound) to \(range.upperBound) (\(what))")
            return nil
        }
        return integer
    }

    func array(_ value: JSONValue?, at pointer: String, _ what: String) -> [JSONValue]? {
        guard let value else { return nil }
        guard case .array(let elements) = value else {
            wrongType(value, at: pointer, expected: "an array (\(what))")
            return nil
        }
        return elements
    }

    /// One of `choices`, reported with the nearest choice when it is none of them.
    func choice(_ value: JSONValue?, at pointer: String, _ what: String, _ choices: [String]) -> String? {
        guard let text = string(value, at: pointer, what) else { return nil }
        guard choices.contains(text) else {
            error(
                "invalidValue", at: pointer, "'\(text)' is not \(Article.withIndefinite(what))",
                suggestion: Spelling.nearest(to: text, in: choices).map { "did you mean '\($0)'?" }
                    ?? "one of: \(choices.joined(separator: ", "))")
            return nil
        }
        return text
    }

    /// A template (a string that may contain `{{…}}`), compiled. One that does not compile is reported and read as
    /// an empty template, so that the definition stays whole and the rest of its check runs in the same round.
    func template(_ value: JSONValue?, at pointer: String, _ what: String) -> Template? {
        guard let text = string(value, at: pointer, what) else { return nil }
        do {
            return try Template(text)
        } catch {
            self.error("invalidTemplate", at: pointer, "the \(what) is not a valid template: \(error)")
            return Template(literal: "")
        }
    }

    private func wrongType(_ value: JSONValue, at pointer: String, expected: String) {
        error("wrongType", at: pointer, "expected \(expected), found \(Self.kind(of: value))")
    }

    static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
