import MicroHTTP
import Switchyard
import SwitchyardJSON
import SwitchyardSessions

/// The admin endpoints that publish, split and retire app versions (``SwitchyardSessions/AppReleases``): behind the
/// admin token (checked by ``APIRoute``), stored in the store's registry, served by every node of the store without a
/// restart. Their refusals render in ``SwitchyardSessions/ReleaseRefusal``'s ``ProblemRendering``.
extension SwitchyardAPI {
    /// `GET /api/admin/apps`: every served app, its versions (configured or published), its rollout and its retired
    /// versions.
    func publishedApps(_ request: HTTPRequest) throws -> HTTPResponse {
        try Self.refuseQuery(request, allowing: [])
        releases.follow()
        let overview = releases.overview()
        let answer: JSONValue = [
            "generation": .number(Double(overview.generation)), "apps": .array(overview.apps.map(\.json)),
        ]
        return .json(200, answer.serialized(), headers: noStore + [("ETag", "\"\(overview.generation)\"")])
    }

    /// `PUT /api/admin/apps/{app}/versions/{version}`: publishes that version from the definition in the body (JSON,
    /// or YAML as `application/yaml`); 201 when it was new, 200 when that very definition was published already.
    func publishVersion(app: String, version text: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let version = try Self.appVersionNumber(text)
        try Self.refuseQuery(request, allowing: [])
        let expected = try Self.expectedGeneration(request)
        let (definition, format) = try definitionText(request)
        let added = try releases.publish(
            app: app, version: version, text: definition, format: format.rawValue, expecting: expected,
            by: request.peer)
        var response = try publishedApps(request)
        if added {
            response.status = 201
            response.headers.append(("Location", "/api/admin/apps/\(app)/versions/\(version)"))
        }
        return response
    }

    /// `GET /api/admin/apps/{app}/versions/{version}`: the definition of a published version, as it was sent.
    func publishedVersion(app: String, version text: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let identity = AppVersion(name: app, version: try Self.appVersionNumber(text))
        try Self.refuseQuery(request, allowing: [])
        guard let published = releases.published(identity) else {
            throw Problem.notFound("\(identity) is not published (a configured version's definition is the node's)")
        }
        let type = published.format == "yaml" ? "application/yaml" : "application/json"
        return HTTPResponse(
            status: 200, headers: [("Content-Type", type)] + noStore, body: Array(published.definition.utf8))
    }

    /// `DELETE /api/admin/apps/{app}/versions/{version}[?fallback=N]`: retires a published version; answers with the
    /// dry run of the app's stored sessions it was checked against.
    func retireVersion(app: String, version text: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let version = try Self.appVersionNumber(text)
        try Self.refuseQuery(request, allowing: ["fallback"])
        let fallback = try request.query["fallback"].map(Self.appVersionNumber)
        let expected = try Self.expectedGeneration(request)
        let report = try releases.retire(
            app: app, version: version, fallback: fallback, expecting: expected, by: request.peer)
        let answer: JSONValue = ["retired": AppVersion(name: app, version: version).json, "sessions": report.json]
        return .json(200, answer.serialized(), headers: noStore)
    }

    /// `PUT /api/admin/apps/{app}/rollout`, `{"shares": [{"version", "weight"}], "requireCleanReplay"?: true}`:
    /// which versions new sessions get; with `requireCleanReplay`, refused (409) unless each version it gives more
    /// weight has a clean latest replay on this node (``requireCleanReplays(app:shares:)``).
    /// `DELETE`: the app's rollout is the nodes' configured one again.
    func setRollout(app: String, _ request: HTTPRequest, remove: Bool = false) throws -> HTTPResponse {
        try Self.refuseQuery(request, allowing: [])
        let expected = try Self.expectedGeneration(request)
        var shares: [PublishedApps.Share]?
        if !remove {
            try requireJSON(request)
            let body = try decode(RolloutRequest.self, request.body)
            let wanted = body.shares.map { PublishedApps.Share(version: $0.version, weight: $0.weight) }
            if body.requireCleanReplay == true { try requireCleanReplays(app: app, shares: wanted) }
            shares = wanted
        }
        try releases.setRollout(app: app, shares: shares, expecting: expected, by: request.peer)
        return try publishedApps(request)
    }

    /// 400 `unknownParameter` for a query parameter not in `allowed`: a misspelt one is never ignored.
    static func refuseQuery(_ request: HTTPRequest, allowing allowed: [String]) throws {
        guard let name = request.query.keys.sorted().first(where: { !allowed.contains($0) }) else { return }
        throw Problem(
            status: 400, code: "unknownParameter", title: "Malformed request",
            detail: "unknown query parameter '\(name)'"
                + (allowed.isEmpty ? "; this request takes none" : "; allowed: \(allowed.joined(separator: ", "))"),
            choices: allowed)
    }

    /// The generation of the published apps `If-Match` names (`"7"`, the `ETag` of `GET /api/admin/apps`, or `7`);
    /// nil without one or for `*`.
    private static func expectedGeneration(_ request: HTTPRequest) throws -> Int? {
        guard let value = request.headers["if-match"]?.trimmingCharacters(in: .whitespaces), value != "*" else {
            return nil
        }
        let quoted = value.count >= 3 && value.hasPrefix("\"") && value.hasSuffix("\"")
        let digits = quoted ? String(value.dropFirst().dropLast()) : value
        guard digits.utf8.allSatisfy({ (48...57).contains($0) }), let generation = Int(digits) else {
            throw Problem.malformed(
                "If-Match must be the ETag of GET /api/admin/apps, a generation in quotes such as \"7\", or *")
        }
        return generation
    }

    /// A published app version number in a path: a whole number from 1.
    static func appVersionNumber(_ text: String) throws -> Int {
        guard let number = Int(text), number >= 1, String(number) == text else {
            throw Problem.malformed("'\(text)' is not an app version (a whole number from 1)")
        }
        return number
    }
}

/// The body of `PUT /api/admin/apps/{app}/rollout`.
struct RolloutRequest: StrictRequest {
    struct Share: Decodable {
        var version: Int
        var weight: Int
    }

    var shares: [Share]
    /// Refuse the rollout unless every version it gives more weight has a clean latest replay (opt-in).
    var requireCleanReplay: Bool?

    static func shape(of value: JSONValue) -> RequestShape { members }

    private static let members = RequestShape.object([
        "shares": .array(.closed(["version", "weight"])), "requireCleanReplay": .any,
    ])
}
