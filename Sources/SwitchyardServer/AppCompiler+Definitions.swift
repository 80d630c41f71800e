import Switchyard
import SwitchyardDefinitions
import SwitchyardSessions

extension AppCompiler {
    /// The definitions compiler (``SwitchyardDefinitions``), which the server passes to the session layer's
    /// ``SwitchyardSessions/AppReleases``: a format it does not know by name is read as JSON.
    static let definitions = AppCompiler { text, format throws(DefinitionRejection) in
        do {
            return try NavigationApp(definition: text, format: DefinitionFormat(rawValue: format) ?? .json)
        } catch let failure as DefinitionFailure {
            throw DefinitionRejection(
                findings: failure.diagnostics.map(DefinitionFinding.init), description: failure.description)
        } catch {
            throw DefinitionRejection(findings: [], description: "\(error)")
        }
    }
}

extension DefinitionFinding {
    /// The finding `diagnostic` is, as plain values.
    init(_ diagnostic: DefinitionDiagnostic) {
        let severity: Severity =
            switch diagnostic.severity {
            case .error: .error
            case .warning: .warning
            }
        self.init(
            severity: severity, code: diagnostic.code, pointer: diagnostic.pointer, message: diagnostic.message,
            suggestion: diagnostic.suggestion, line: diagnostic.position?.line, column: diagnostic.position?.column)
    }
}
