import Foundation
import Switchyard
import YAMLReader

/// How a definition is written.
public enum DefinitionFormat: String, Sendable, CaseIterable {
    case json, yaml

    /// The format a file name says (`.yaml`/`.yml`: YAML; anything else: JSON).
    public init(fileName: String) {
        let lowered = fileName.lowercased()
        self = lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml") ? .yaml : .json
    }

    /// What a definition may hold, checked on the parser's events as it reads (JSON and YAML alike), before the
    /// rest of the file is read: nesting 64 levels deep, 200,000 values, strings and keys of 64 KiB.
    public static let limits = JSONLimits(maxDepth: 64, maxNodes: 200_000, maxStringBytes: 64 * 1024)

    /// The JSON value of `text`; a diagnostic saying where it does not parse.
    func parse(_ text: String) -> Result<JSONValue, DefinitionDiagnostic> {
        switch self {
        case .json:
            let bytes = Array(text.utf8)
            do {
                return .success(try JSONValue(parsing: bytes, limits: Self.limits))
            } catch let exceeded as JSONLimitExceeded {
                return .failure(Self.diagnostic(exceeded.bound, at: exceeded.pointer, exceeded.description))
            } catch DecodingError.dataCorrupted(let context) {
                guard let syntax = context.underlyingError as? JSONSyntaxError else {
                    return .failure(
                        DefinitionDiagnostic(
                            .error, "invalidJSON", at: "", "the file is not JSON: \(context.debugDescription)"))
                }
                return .failure(
                    DefinitionDiagnostic(
                        .error, "invalidJSON", at: "", "the file is not JSON: \(syntax.reason)",
                        position: SourceLines(bytes).position(ofByte: syntax.byteOffset)))
            } catch {
                return .failure(DefinitionDiagnostic(.error, "invalidJSON", at: "", "the file is not JSON: \(error)"))
            }
        case .yaml:
            switch YAMLReader.read(text, limits: Self.limits) {
            case .success(let value): return .success(value)
            case .failure(let failure):
                let at = failure.position
                if case .limit(let bound) = failure.reason {
                    return .failure(Self.diagnostic(bound, at: failure.pointer, failure.problem, position: at))
                }
                switch failure.reason {
                case .aliasNotAllowed:
                    return .failure(
                        DefinitionDiagnostic(
                            .error, "aliasNotAllowed", at: failure.pointer, failure.problem, position: at))
                case .syntax:
                    return .failure(
                        DefinitionDiagnostic(
                            .error, "invalidYAML", at: failure.pointer, "the file is not YAML: \(failure.problem)",
                            position: at))
                default:
                    return .failure(
                        DefinitionDiagnostic(.error, "invalidYAML", at: failure.pointer, failure.problem, position: at))
                }
            }
        }
    }

    /// Where each value of `text` (read without an error) starts, by JSON Pointer.
    func positions(_ text: String) -> [String: SourcePosition] {
        switch self {
        case .json:
            let bytes = Array(text.utf8)
            let lines = SourceLines(bytes)
            return JSONValueOffsets.of(bytes).mapValues { lines.position(ofByte: $0) }
        case .yaml:
            return YAMLReader.positions(text, limits: Self.limits)
        }
    }

    /// The finding for a file past one of ``limits``: `tooDeep`, `tooManyNodes` or `tooLong`.
    private static func diagnostic(
        _ bound: JSONLimitExceeded.Bound, at pointer: String, _ message: String, position: SourcePosition? = nil
    )
        -> DefinitionDiagnostic
    {
        let code =
            switch bound {
            case .depth: "tooDeep"
            case .nodes: "tooManyNodes"
            case .stringBytes: "tooLong"
            }
        return DefinitionDiagnostic(.error, code, at: pointer, message, position: position)
    }
}
