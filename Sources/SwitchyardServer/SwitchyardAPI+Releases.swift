import MicroHTTP
import Switchyard
import SwitchyardJSON
import SwitchyardSessions

/// The admin endpoints that publish, split and retire app versions (``AppReleases``): behind the admin token, stored
/// in the store's registry, served by every node of the store without a restart.
extension SwitchyardAPI {
    /// `GET /api/admin/apps`: every served app, its versions (configured or published), its rollout and its retired
    /// versions.
    func publishedApps(_ request: HTTPRequest) throws -> HTTPResponse {
        try authorizeAdmin(request)
        try Self.refuseQuery(request, allowing: [])
        releases.follow()
        let (generation, published, served, configured) = releases.overview()
        let apps: [JSONValue] = served.names.map { name in
            let versions: [JSONValue] = served.versions(of: name).map { app in
                var entry: [String: JSONValue] = ["version": .number(Double(app.version))]
                if configured.contains(app.identity) {
                    entry["source"] = "configured"
                } else if let version = published.version(app.identity) {
                    entry["source"] = "published"
                    entry["format"] = .string(version.format)
                    entry["published"] = .number(version.published)
                }
                return .object(entry)
            }
            let shares = served.rollout(of: name)?.shares ?? []
            let retired: [JSONValue] = published.retired.filter { $0.app == name }.map { retired in
                var entry: [String: JSONValue] = [
                    "version": .number(Double(retired.version)), "retired": .number(retired.retired),
                ]
                if let fallback = retired.fallback { entry["fallback"] = .number(Double(fallback)) }
                return .object(entry)
            }
            return [
                "name": .string(name), "versions": .array(versions),
                "rollout": .array(
                    shares.map { ["version": .number(Double($0.version)), "weight": .number(Double($0.weight))] }),
                "retired": .array(retired),
            ]
        }
        let answer: JSONValue = ["generation": .number(Double(generation)), "apps": .array(apps)]
        return .json(200, answer.serialized(), headers: noStore + [("ETag", "\"\(generation)\"")])
    }

    /// `PUT /api/admin/apps/{app}/versions/{version}`: publishes that version from the definition in the body (JSON,
    /// or YAML as `application/yaml`); 201 when it was new, 200 when that very definition was published already.
    func publishVersion(app: String, version text: String, _ request: HTTPRequest) throws -> HTTPResponse {
        try authorizeAdmin(request)
        let version = try Self.appVersionNumber(text)
        try Self.refuseQuery(request, allowing: [])
        let expected = try Self.expectedGeneration(request)
        let (definition, format) = try definitionText(request)
        let added = try releasing { () throws(ReleaseRefusal) in
            try releases.publish(
                app: app, version: version, text: definition, format: format, expecting: expected, by: request.peer)
        }
        var response = try publishedApps(request)
        if added {
            response.status = 201
            response.headers.append(("Location", "/api/admin/apps/\(app)/versions/\(version)"))
        }
        return response
    }

    /// `GET /api/admin/apps/{app}/versions/{version}`: the definition of a published version, as it was sent.
    func publishedVersion(app: String, version text: String, _ request: HTTPRequest) throws -> HTTPResponse {
        try authorizeAdmin(request)
        let identity = AppVersion(name: app, version: try Self.appVersionNumber(text))
        try Self.refuseQuery(request, allowing: [])
        guard let published = releases.overview().published.version(identity) else {
            throw Problem.notFound("\(identity) is not published (a configured version's definition is the node's)")
        }
        let type = published.format == "yaml" ? "application/yaml" : "application/json"
        return HTTPResponse(
            status: 200, headers: [("Content-Type", type)] + noStore, body: Array(published.definition.utf8))
    }

    /// `DELETE /api/admin/apps/{app}/versions/{version}[?fallback=N]`: retires a published version; answers with the
    /// dry run of the app's stored sessions it was checked against.
    func retireVersion(app: String, version text: String, _ request: HTTPRequest) throws -> HTTPResponse {
        try authorizeAdmin(request)
        let version = try Self.appVersionNumber(text)
        try Self.refuseQuery(request, allowing: ["fallback"])
        let fallback = try request.query["fallback"].map(Self.appVersionNumber)
        let expected = try Self.expectedGeneration(request)
        let report = try releasing { () throws(ReleaseRefusal) in
            try releases.retire(app: app, version: version, fallback: fallback, expecting: expected, by: request.peer)
        }
        let answer: JSONValue = ["retired": AppVersion(name: app, version: version).json, "sessions": report.json]
        return .json(200, answer.serialized(), headers: noStore)
    }

    /// `PUT /api/admin/apps/{app}/rollout`, `{"shares": [{"version", "weight"}]}`: which versions new sessions get.
    /// `DELETE`: the app's rollout is the nodes' configured one again.
    func setRollout(app: String, _ request: HTTPRequest, remove: Bool = false) throws -> HTTPResponse {
        try authorizeAdmin(request)
        try Self.refuseQuery(request, allowing: [])
        let expected = try Self.expectedGeneration(request)
        var shares: [PublishedApps.Share]?
        if !remove {
            try requireJSON(request)
            let body = try decode(RolloutRequest.self, request.body)
            shares = body.shares.map { PublishedApps.Share(version: $0.version, weight: $0.weight) }
        }
        try releasing { () throws(ReleaseRefusal) in
            try releases.setRollout(app: app, shares: shares, expecting: expected, by: request.peer)
        }
        return try publishedApps(request)
    }

    /// 400 `unknownParameter` for a query parameter not in `allowed`: a misspelt one is never ignored.
    private static func refuseQuery(_ request: HTTPRequest, allowing allowed: [String]) throws {
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
    private static func appVersionNumber(_ text: String) throws -> Int {
        guard let number = Int(text), number >= 1, String(number) == text else {
            throw Problem.malformed("'\(text)' is not an app version (a whole number from 1)")
        }
        return number
    }

    /// Runs an admin change; its refusal as the problem it answers.
    private func releasing<Value>(_ body: () throws(ReleaseRefusal) -> Value) throws -> Value {
        do {
            return try body()
        } catch {
            throw Problem(error)
        }
    }
}

/// The body of `PUT /api/admin/apps/{app}/rollout`.
struct RolloutRequest: StrictRequest {
    struct Share: Decodable {
        var version: Int
        var weight: Int
    }

    var shares: [Share]

    static func shape(of value: JSONValue) -> RequestShape { members }

    private static let members = RequestShape.object(["shares": .array(.closed(["version", "weight"]))])
}

extension Problem {
    /// The problem an admin change's refusal answers with.
    init(_ refusal: ReleaseRefusal) {
        switch refusal {
        case .noRegistry:
            self.init(
                status: 409, code: "noRegistry", title: "Publishing unavailable",
                detail: "this server's store keeps no published apps; serve versions from the configuration")
        case .notFound(let what):
            self = .notFound(what)
        case .invalid(let why):
            self.init(status: 422, code: "invalidRelease", title: "Invalid input", detail: why)
        case .invalidDefinition(let diagnostics):
            self.init(
                status: 422, code: "invalidDefinition", title: "Invalid definition",
                detail: diagnostics.first.map { "\($0.pointer.isEmpty ? "" : $0.pointer + ": ")\($0.message)" }
                    ?? "the definition has errors",
                extra: [("diagnostics", SwitchyardAPI.json(diagnostics).serialized())])
        case .invalidApps(let errors):
            self.init(
                status: 422, code: "invalidApps", title: "Invalid input",
                detail: "the apps would not work together: " + errors.joined(separator: "; "),
                choices: errors)
        case .conflict(let why):
            self.init(status: 409, code: "releaseConflict", title: "Conflict", detail: why)
        case .sessionsWouldBeLost(let report, let count):
            self.init(
                status: 409, code: "sessionsWouldBeLost", title: "Sessions would be lost",
                detail: "\(count) stored \(count == 1 ? "session" : "sessions") would be lost: no migration takes "
                    + "\(count == 1 ? "it" : "them") to a served version without it; add a migration, or name a "
                    + "served version with ?fallback=N for \(count == 1 ? "it" : "them") to start over on",
                extra: [("sessions", report.json.serialized())])
        case .rolloutSettling(let seconds):
            self.init(
                status: 409, code: "rolloutSettling", title: "Conflict",
                detail: "the app's rollout changed moments ago, and a node may still give this version new sessions; "
                    + "retry in \(seconds) s",
                headers: [("Retry-After", "\(seconds)")])
        case .changedMeanwhile:
            self.init(
                status: 409, code: "changedMeanwhile", title: "Conflict",
                detail: "another admin change of the published apps was stored first; read them again and retry")
        case .staleGeneration(let current):
            self.init(
                status: 412, code: "staleGeneration", title: "Precondition failed",
                detail: "the published apps are at generation \(current), not the one If-Match names; read them "
                    + "again (GET /api/admin/apps) and decide again",
                headers: [("ETag", "\"\(current)\"")])
        case .store(let incident):
            self = .store(incident, data: "the published apps", kept: "nothing was changed")
        }
    }
}
