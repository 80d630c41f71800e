import Foundation
import MicroHTTP
import Switchyard

/// Request bodies: JSON only, decoded into the request types with precise problems for what does not fit.
extension SwitchyardAPI {
    /// 415 unless the request says its body is JSON.
    func requireJSON(_ request: HTTPRequest) throws {
        let header = request.headers["content-type"] ?? ""
        // The common case without Foundation's trimming, which cost ~5 % of a transition request's CPU.
        if header == "application/json" { return }
        let type = header.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard let type, type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
        else {
            throw Problem(
                status: 415, code: "unsupportedMediaType", title: "Unsupported media type",
                detail: "send the body as application/json", choices: ["application/json"])
        }
    }

    /// Decodes a JSON body; malformed JSON, a member its ``StrictRequest/shape(of:)`` does not allow and wrong shapes
    /// are 400, a string over
    /// ``ServerConfiguration/maxFieldBytes`` is 422, engine refusals (e.g. unknown action) pass on.
    func decode<Value: StrictRequest>(_ type: Value.Type, _ body: [UInt8]) throws -> Value {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: body)
        } catch {
            throw Problem.malformed("the body is not valid JSON")
        }
        let shape = Value.shape(of: value)
        if !shape.allows(value) { try shape.check(value) }
        if Self.longestField(value) > configuration.maxFieldBytes { try checkFieldLengths(value, path: "") }
        if let plain = Value.self as? any PlainJSONDecodable.Type, let decoded = plain.init(plainJSON: value) as? Value
        {
            return decoded
        }
        do {
            return try JSONValueDecoder().decode(Value.self, from: value)
        } catch let error as NavigationError {
            throw error
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw Problem.malformed("the body is not valid JSON")
        } catch let error as DecodingError {
            throw Problem.malformed(Self.describe(error))
        } catch {
            throw Problem.malformed("the body is not valid JSON")
        }
    }

    /// The length in bytes of the longest string (member name or value) in `value`: the common check, which
    /// builds no paths (``checkFieldLengths(_:path:)`` names the field once one is too long).
    private static func longestField(_ value: JSONValue) -> Int {
        switch value {
        case .string(let text): text.utf8.count
        case .array(let items): items.reduce(0) { max($0, longestField($1)) }
        case .object(let members): members.reduce(0) { max($0, $1.key.utf8.count, longestField($1.value)) }
        default: 0
        }
    }

    /// 422 `fieldTooLong` for the first string (member name or value) longer than the limit.
    private func checkFieldLengths(_ value: JSONValue, path: String) throws {
        let limit = configuration.maxFieldBytes
        func tooLong(_ where: String, _ bytes: Int) -> Problem {
            var problem = Problem(
                status: 422, code: "fieldTooLong", title: "Invalid input",
                detail: "\(`where`) is \(bytes) bytes long; the limit is \(limit)")
            problem.extra = [("limit", Array(String(limit).utf8))]
            return problem
        }
        switch value {
        case .string(let text) where text.utf8.count > limit:
            throw tooLong(path.isEmpty ? "the body" : "'\(path)'", text.utf8.count)
        case .array(let items):
            for (index, item) in items.enumerated() { try checkFieldLengths(item, path: path + "[\(index)]") }
        case .object(let members):
            for (name, member) in members {
                guard name.utf8.count <= limit else { throw tooLong("a member name", name.utf8.count) }
                try checkFieldLengths(member, path: path.isEmpty ? name : path + "." + name)
            }
        default:
            return
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.isEmpty
                ? "the body" : "'" + context.codingPath.map(\.stringValue).joined(separator: ".") + "'"
        }
        switch error {
        case .typeMismatch(let type, let context): return "\(path(context)) must be \(jsonName(type))"
        case .valueNotFound(let type, let context): return "\(path(context)) must be \(jsonName(type)), not null"
        case .keyNotFound(let key, let context):
            return "missing member '\(key.stringValue)' in \(context.codingPath.isEmpty ? "the body" : path(context))"
        case .dataCorrupted(let context): return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "the body does not have the expected shape"
        }
    }

    private static func jsonName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Double.Type: return "a number"
        case is Bool.Type: return "a boolean"
        case is [Any].Type: return "an array"
        default: return "an object"
        }
    }
}
