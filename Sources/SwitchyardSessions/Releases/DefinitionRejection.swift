/// Why a published definition cannot be served (``AppCompiler``): every finding the compiler made, errors first.
package struct DefinitionRejection: Error, Sendable, CustomStringConvertible {
    /// Every finding, errors first.
    package let findings: [DefinitionFinding]
    /// The findings as the compiler words them, one a line (logged, and quoted in ``ReleaseRefusal/invalidApps(_:)``).
    package let description: String

    /// A definition rejected for `findings`, which `description` words.
    package init(findings: [DefinitionFinding], description: String) {
        self.findings = findings
        self.description = description
    }
}
