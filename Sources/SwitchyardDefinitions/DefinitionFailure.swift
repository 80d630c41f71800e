/// A definition that cannot be served: every diagnostic found (errors and warnings), one line each.
public struct DefinitionFailure: Error, CustomStringConvertible {
    public let diagnostics: [DefinitionDiagnostic]

    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
