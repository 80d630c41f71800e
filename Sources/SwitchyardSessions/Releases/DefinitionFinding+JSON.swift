import SwitchyardJSON

extension DefinitionFinding {
    /// Findings as the API lists them: `[{severity, code, pointer, message, suggestion?, line?, column?}]`.
    package static func json(_ findings: [DefinitionFinding]) -> JSONValue {
        .array(
            findings.map { finding -> JSONValue in
                var entry: [String: JSONValue] = [
                    "severity": .string(finding.severity.rawValue), "code": .string(finding.code),
                    "pointer": .string(finding.pointer), "message": .string(finding.message),
                ]
                if let suggestion = finding.suggestion { entry["suggestion"] = .string(suggestion) }
                if let line = finding.line, let column = finding.column {
                    entry["line"] = .number(Double(line))
                    entry["column"] = .number(Double(column))
                }
                return .object(entry)
            })
    }
}
