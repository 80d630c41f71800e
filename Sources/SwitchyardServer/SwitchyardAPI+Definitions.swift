import Foundation
import MicroHTTP
import Switchyard
import SwitchyardDefinitions
import SwitchyardSessions

/// The dry run of an app definition, for CI and editors: what `switchyard check FILE` prints, as JSON.
extension SwitchyardAPI {
    /// The media types a definition may be sent as.
    static let definitionMediaTypes = ["application/json", "application/yaml", "text/yaml"]

    /// `POST /api/definitions/check`: reads and checks the app definition in the body (JSON, or YAML sent as
    /// `application/yaml`) and answers 200 with `valid`, the app's `name` and every finding. Nothing is served or
    /// stored.
    ///
    /// It needs no token (CI and editors call it), so it is bounded on its own: a body of at most
    /// ``ServerConfiguration/maxDefinitionCheckBytes`` (413), ``ServerConfiguration/definitionChecksPerMinute`` per
    /// client address (429 with `Retry-After`), and ``ServerConfiguration/concurrentDefinitionChecks`` at once
    /// (503 `checkBusy` with `Retry-After`, answered at once): the rest of the server's threads stay with sessions.
    /// Reading is bounded by the definition limits (``DefinitionFormat/limits``), so each check's work is too.
    func checkDefinition(_ request: HTTPRequest) throws -> HTTPResponse {
        guard request.body.count <= configuration.maxDefinitionCheckBytes else {
            throw Problem(
                status: 413, code: "definitionTooLarge", title: "Request too large",
                detail: "a definition to check is at most \(configuration.maxDefinitionCheckBytes) bytes; check a "
                    + "larger file with `switchyard check FILE`")
        }
        if case .refused(let wait) = definitionChecks.take(for: request.peer) {
            throw Problem.rateLimited(
                code: "tooManyChecks", title: "Too many checks",
                "this address asked for \(configuration.definitionChecksPerMinute) definition checks in the last "
                    + "minute, its limit", retryAfter: wait)
        }
        let limit = configuration.concurrentDefinitionChecks
        let admitted = definitionChecksRunning.withLock { running in
            guard running < limit else { return false }
            running += 1
            return true
        }
        guard admitted else {
            throw Problem(
                status: 503, code: "checkBusy", title: "Checks busy",
                detail: "\(limit) definition checks are running, the most at once; retry shortly",
                headers: [("Retry-After", "1")])
        }
        defer { definitionChecksRunning.withLock { $0 -= 1 } }
        let (text, format) = try definitionText(request)
        let loaded = AppDefinition.load(text, format: format)
        let answer: JSONValue = [
            "valid": .bool(loaded.definition != nil), "name": loaded.definition.map { .string($0.name) } ?? .null,
            "diagnostics": DefinitionFinding.json(loaded.diagnostics.map(DefinitionFinding.init)),
        ]
        return .json(200, answer.serialized(), headers: noStore)
    }

    /// The definition a request's body holds, and its format (by `Content-Type`): 415 for another media type, 400
    /// for a body that is not UTF-8.
    func definitionText(_ request: HTTPRequest) throws -> (String, DefinitionFormat) {
        let type =
            (request.headers["content-type"] ?? "").split(separator: ";").first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
        let format: DefinitionFormat
        switch type {
        case "application/json": format = .json
        case _ where type.hasPrefix("application/") && type.hasSuffix("+json"): format = .json
        case "application/yaml", "application/x-yaml", "text/yaml": format = .yaml
        default:
            throw Problem(
                status: 415, code: "unsupportedMediaType", title: "Unsupported media type",
                detail: "send the definition as application/json or application/yaml",
                choices: Self.definitionMediaTypes)
        }
        guard let text = String(validating: request.body, as: UTF8.self) else {
            throw Problem(
                status: 400, code: "malformedBody", title: "Malformed request", detail: "the body is not UTF-8 text")
        }
        return (text, format)
    }
}
