import Switchyard

extension AppDefinition {
    /// Reads and checks a definition: the definition (nil when it cannot be read) and every finding, errors first,
    /// each kind in the order of the places it names (JSON Pointers compared token by token, numbers as numbers). It
    /// can be served when no finding is an error.
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
        case .success(let value): return load(parsed: value)
        case .failure(let diagnostic): return (nil, [diagnostic])
        }
    }

    /// ``load(_:format:)`` of a definition already parsed.
    static func load(parsed value: JSONValue) -> (definition: AppDefinition?, diagnostics: [DefinitionDiagnostic]) {
        let reader = DefinitionReader()
        let definition = read(value, reader)
        var findings = reader.diagnostics
        // An unknown member is left out and the rest read as usual, so the checks of the whole still hold; any other
        // error may have left something out, and checking what remains would report what is only missing.
        if let definition, !findings.contains(where: { $0.severity == .error && $0.code != "unknownMember" }) {
            findings += DefinitionCheck(definition).findings()
        }
        let errors = Self.inPlaceOrder(findings.filter { $0.severity == .error })
        return (
            errors.isEmpty ? definition : nil, errors + Self.inPlaceOrder(findings.filter { $0.severity == .warning })
        )
    }

    /// `findings` in the order of their pointers (stable: those at one place keep the order they were found in).
    private static func inPlaceOrder(_ findings: [DefinitionDiagnostic]) -> [DefinitionDiagnostic] {
        findings.enumerated().sorted { left, right in
            let (a, b) = (tokens(left.element.pointer), tokens(right.element.pointer))
            for (x, y) in zip(a, b) where x != y {
                if let x = Int(x), let y = Int(y) { return x < y }
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
