import Switchyard

/// Something the check of an app definition found: how bad, a stable code, where (a JSON Pointer into the
/// definition), what is wrong and how to fix it.
public struct DefinitionDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Sendable, Hashable {
        /// The definition cannot be served.
        case error
        /// It can be served, but probably not as meant.
        case warning
    }

    public let severity: Severity
    /// A stable identifier for tools, e.g. `unknownTarget`.
    public let code: String
    /// Where, as a JSON Pointer (RFC 6901) into the definition: `/coordinators/Cart/routes/checkout/target`.
    public let pointer: String
    /// What is wrong.
    public let message: String
    /// How to fix it, when there is something to say (`did you mean 'Checkout'?`).
    public let suggestion: String?
    /// Where in the text the definition was read from: the value at ``pointer`` (or the nearest value holding it, for
    /// a member that is missing), or where the parser stopped; nil when the finding has no place in the text.
    public private(set) var position: SourcePosition?

    /// A finding.
    public init(
        _ severity: Severity, _ code: String, at pointer: String, _ message: String, suggestion: String? = nil,
        position: SourcePosition? = nil
    ) {
        self.severity = severity
        self.code = code
        self.pointer = pointer
        self.message = message
        self.suggestion = suggestion
        self.position = position
    }

    /// This finding placed in its text by `positions` (where each value starts, by pointer): at its pointer's value,
    /// else at the nearest value holding it. One that has a place keeps it.
    func located(in positions: [String: SourcePosition]) -> DefinitionDiagnostic {
        guard position == nil else { return self }
        var located = self
        var pointer = Substring(self.pointer)
        while located.position == nil {
            located.position = positions[String(pointer)]
            guard let slash = pointer.lastIndex(of: "/") else { break }
            pointer = pointer[..<slash]
        }
        return located
    }

    /// `error unknownTarget at /coordinators/Cart/routes/checkout/target: … (did you mean 'Checkout'?)`
    public var description: String {
        "\(severity.rawValue) \(code) at \(pointer.isEmpty ? "/" : pointer): \(message)"
            + (suggestion.map { " (\($0))" } ?? "")
    }
}

/// JSON Pointers (RFC 6901).
enum Pointer {
    /// `pointer` with one more reference token, escaped (`~` → `~0`, `/` → `~1`).
    static func append(_ pointer: String, _ token: String) -> String {
        pointer + "/" + JSONPointer.escaped(token)
    }

    static func append(_ pointer: String, _ index: Int) -> String {
        pointer + "/\(index)"
    }
}
