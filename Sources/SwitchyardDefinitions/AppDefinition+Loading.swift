import Switchyard

extension AppDefinition {
    /// Reads and checks a definition: the definition (nil when it cannot be read) and every finding, errors first.
    /// It can be served when no finding is an error.
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
        let value: JSONValue
        switch format.parse(text) {
        case .success(let parsed): value = parsed
        case .failure(let diagnostic): return (nil, [diagnostic])
        }
        let reader = DefinitionReader()
        let definition = read(value, reader)
        var findings = reader.diagnostics
        // An unknown member is left out and the rest read as usual, so the checks of the whole still hold; any other
        // error may have left something out, and checking what remains would report what is only missing.
        if let definition, !findings.contains(where: { $0.severity == .error && $0.code != "unknownMember" }) {
            findings += DefinitionCheck(definition).findings()
        }
        let errors = findings.filter { $0.severity == .error }
        return (errors.isEmpty ? definition : nil, errors + findings.filter { $0.severity == .warning })
    }

    /// The largest definition read (8 MiB).
    public static let maxBytes = 8 << 20
}
