public import SwitchyardJSON

/// Why a YAML text was not read, with where: a JSON Pointer to the value (empty for the whole text) and the
/// line and column (from 1) the YAML parser was at.
public struct YAMLFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Error, Sendable, Hashable {
        /// Not YAML: what the parser said.
        case syntax(String)
        /// A bound of the ``JSONLimits`` the text was read within.
        case limit(JSONLimitExceeded.Bound)
        /// An anchor (`&name`) or an alias (`*name`): an alias stands for all it names, so a few hundred bytes of
        /// them can stand for billions of values. None is allowed.
        case aliasNotAllowed(String)
        /// A key that is a list or a mapping; keys are text.
        case keyNotScalar
        /// The same key twice in one mapping.
        case duplicateKey(String)
        /// A tag JSON has no value for (`!!binary`, `!!timestamp`, an application's own `!tag`).
        case unsupportedTag(String)
        /// A value its tag cannot hold (`!!int abc`), or a number JSON cannot (`!!float .inf`).
        case notRepresentable(String)
        /// More than one document (`---` between two).
        case severalDocuments
        /// Nothing at all.
        case empty
    }

    /// What went wrong.
    public let reason: Reason
    /// Where, as a JSON Pointer (RFC 6901).
    public let pointer: String
    /// The line (from 1) of the text where it was found.
    public let line: Int
    /// The column (from 1) of the text where it was found.
    public let column: Int

    /// A failure at `pointer`, line and column.
    public init(_ reason: Reason, at pointer: String, line: Int, column: Int) {
        self.reason = reason
        self.pointer = pointer
        self.line = line
        self.column = column
    }

    /// Where it was found.
    public var position: SourcePosition { SourcePosition(line: line, column: column) }

    /// `the key 'a' is there twice (line 3, column 1)`.
    public var description: String {
        "\(problem) (line \(line), column \(column))"
    }

    /// What went wrong, without where: `the key 'a' is there twice`.
    public var problem: String {
        switch reason {
        case .syntax(let problem): problem
        case .limit(let bound): JSONLimitExceeded(bound, at: pointer).description
        case .aliasNotAllowed(let name):
            "YAML anchors and aliases ('\(name)') are not supported; quote text that starts with '&' or '*'"
        case .keyNotScalar: "keys that are lists or mappings are not supported: keys are names"
        case .duplicateKey(let key): "the key '\(key)' is there twice"
        case .unsupportedTag(let tag): "the tag '\(tag)' has no JSON value"
        case .notRepresentable(let text): "'\(text)' cannot be read as its tag says, or is not a JSON number"
        case .severalDocuments: "the file holds more than one YAML document"
        case .empty: "the file is empty"
        }
    }
}
