import Switchyard

extension AppDefinition {
    /// Reads and checks a definition: the definition (nil when it cannot be read) and every finding, errors first,
    /// each severity in the order of the places in the text it names (line, then column), findings at one place
    /// in the order of their pointers. It can be served when no finding is an error.
    public static func load(
        _ text: String, format: DefinitionFormat = .json
    ) -> (definition: AppDefinition?, diagnostics: [DefinitionDiagnostic]) {
        guard text.utf8.count <= maxBytes else {
            return (
                nil,
                [
                    DefinitionDiagnostic(
                        .error, "tooLarge", at: "", "the definition has \(text.utf8.count) bytes, more than \(maxBytes)"
                    )
                ]
            )
        }
        switch format.parse(text) {
        case .success(let value): return load(parsed: value, text: text, format: format)
        case .failure(let diagnostic): return (nil, [diagnostic])
        }
    }

    /// ``load(_:format:)`` of a definition already parsed from `text` (in `format`, where findings are placed).
    static func load(
        parsed value: JSONValue, text: String, format: DefinitionFormat
    ) -> (definition: AppDefinition?, diagnostics: [DefinitionDiagnostic]) {
        let reader = DefinitionReader()
        let definition = read(value, reader)
        var findings = reader.diagnostics
        // An unknown member is left out and a template that does not compile is read as an empty one, the rest read
        // as usual, so the checks of the whole still hold; any other error may have left something out, and
        // checking what remains would report what is only missing.
        let local: Set<String> = ["unknownMember", "invalidTemplate"]
        if let definition, !findings.contains(where: { $0.severity == .error && !local.contains($0.code) }) {
            findings += DefinitionCheck(definition).findings()
        }
        if !findings.isEmpty {
            let positions = format.positions(text)
            findings = findings.map { $0.located(in: positions) }
        }
        let errors = Self.inPlaceOrder(findings.filter { $0.severity == .error })
        return (
            errors.isEmpty ? definition : nil, errors + Self.inPlaceOrder(findings.filter { $0.severity == .warning })
        )
    }

    /// `findings` in the order of their places in the text: by ``DefinitionDiagnostic/position`` (line, then
    /// column) when both have one (one that has comes first), else by pointer (JSON Pointers compared token by token,
    /// numbers as numbers); stable: findings at one place keep the order they were found in.
    static func inPlaceOrder(_ findings: [DefinitionDiagnostic]) -> [DefinitionDiagnostic] {
        findings.enumerated().sorted { left, right in
            switch (left.element.position, right.element.position) {
            case (let a?, let b?) where a != b: return a < b
            case (.some, nil): return true
            case (nil, .some): return false
            default: break
            }
            let (a, b) = (tokens(left.element.pointer), tokens(right.element.pointer))
            for (x, y) in zip(a, b) where x != y {
                if let x = Int(x), let y = Int(y), x != y { return x < y }
                return x < y
            }
            return a.count != b.count ? a.count < b.count : left.offset < right.offset
        }.map(\.element)
    }

    private static func tokens(_ pointer: String) -> [Substring] {
        pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
    }

    /// The largest definition read (8 MiB).
    public static let maxBytes = 8 << 20
}
