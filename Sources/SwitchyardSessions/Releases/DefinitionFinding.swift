/// Something the definitions compiler found in a published definition (``AppCompiler``), as plain values the HTTP
/// edge renders: how bad, a stable code, where (a JSON Pointer into the definition), what is wrong and how to fix it.
package struct DefinitionFinding: Sendable, Equatable {
    /// How bad it is.
    package enum Severity: String, Sendable {
        /// The definition cannot be served.
        case error
        /// It can be served, but probably not as meant.
        case warning
    }

    /// How bad it is.
    package let severity: Severity
    /// A stable identifier for tools, e.g. `unknownTarget`.
    package let code: String
    /// Where, as a JSON Pointer (RFC 6901) into the definition ("" for the whole of it).
    package let pointer: String
    /// What is wrong.
    package let message: String
    /// How to fix it, when there is something to say.
    package let suggestion: String?
    /// The line and column (from 1) in the definition's text, when the finding has a place there.
    package let line: Int?
    package let column: Int?

    /// A finding.
    package init(
        severity: Severity, code: String, pointer: String, message: String, suggestion: String?, line: Int? = nil,
        column: Int? = nil
    ) {
        self.severity = severity
        self.code = code
        self.pointer = pointer
        self.message = message
        self.suggestion = suggestion
        self.line = line
        self.column = column
    }
}
