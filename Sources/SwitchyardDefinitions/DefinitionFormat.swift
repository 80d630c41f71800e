import Foundation
import Switchyard
import Yams

/// How a definition is written.
public enum DefinitionFormat: String, Sendable, CaseIterable {
    case json, yaml

    /// The format a file name says (`.yaml`/`.yml`: YAML; anything else: JSON).
    public init(fileName: String) {
        let lowered = fileName.lowercased()
        self = lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml") ? .yaml : .json
    }

    /// The JSON value of `text`; a diagnostic saying where it does not parse.
    func parse(_ text: String) -> Result<JSONValue, DefinitionDiagnostic> {
        switch self {
        case .json:
            do {
                return .success(try JSONValue(parsing: Array(text.utf8)))
            } catch {
                return .failure(DefinitionDiagnostic(.error, "invalidJSON", at: "", "the file is not JSON: \(error)"))
            }
        case .yaml:
            if let refusal = YAMLPreflight.refusal(text) {
                return .failure(DefinitionDiagnostic(.error, "invalidYAML", at: "", refusal))
            }
            do {
                guard let loaded = try Yams.load(yaml: text, try Self.coreSchema()) else {
                    return .failure(DefinitionDiagnostic(.error, "invalidYAML", at: "", "the file is empty"))
                }
                guard let value = Self.json(loaded, depth: 0) else {
                    return .failure(
                        DefinitionDiagnostic(
                            .error, "invalidYAML", at: "",
                            "the YAML holds something JSON cannot (a date, binary data, a non-string key, or nesting deeper than 64)"
                        ))
                }
                return .success(value)
            } catch {
                return .failure(DefinitionDiagnostic(.error, "invalidYAML", at: "", "the file is not YAML: \(error)"))
            }
        }
    }

    /// YAML 1.2's core schema, as JSON reads it: `true`/`false` (not `yes`, `no`, `on`, `off`), `null`, `~` and
    /// nothing for null, decimal and `0x`/`0o` integers, decimal floats. Everything else is text: a date, `.inf`,
    /// `.nan` (which JSON cannot hold), `0755` (no octal by a leading zero), `<<` (no merge keys).
    private static func coreSchema() throws -> Resolver {
        try Resolver.basic
            .appending(.null, "^(?:~|null|Null|NULL|)$")
            .appending(.bool, "^(?:true|True|TRUE|false|False|FALSE)$")
            .appending(.int, "^(?:[-+]?(?:0|[1-9][0-9]*)|0o[0-7]+|0x[0-9a-fA-F]+)$")
            .appending(.float, "^(?:[-+]?(?:\\.[0-9]+|(?:0|[1-9][0-9]*)(?:\\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$")
    }

    private static func json(_ value: Any, depth: Int) -> JSONValue? {
        guard depth < 64 else { return nil }
        switch value {
        case is NSNull: return .null
        case let flag as Bool: return .bool(flag)
        case let integer as Int: return .number(Double(integer))
        case let number as Double: return number.isFinite ? .number(number) : nil
        case let text as String: return .string(text)
        case let array as [Any]:
            var elements: [JSONValue] = []
            for element in array {
                guard let converted = json(element, depth: depth + 1) else { return nil }
                elements.append(converted)
            }
            return .array(elements)
        case let object as [AnyHashable: Any]:
            var members: [String: JSONValue] = [:]
            for (key, member) in object {
                guard let key = key.base as? String, let converted = json(member, depth: depth + 1) else { return nil }
                members[key] = converted
            }
            return .object(members)
        default: return nil
        }
    }
}
