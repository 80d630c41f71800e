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
        return .json(200, answer.serialized(), headers: noStore)
    }

    /// `PUT /api/admin/apps/{app}/versions/{version}`: publishes that version from the definition in the body (JSON,
    /// or YAML as `application/yaml`); 201 when it was new, 200 when that very definition was published already.
    func publishVersion(app: String, version text: String, _ request: HTTPRequest) throws -> HTTPResponse {
        try authorizeAdmin(request)
        let version = try Self.appVersionNumber(text)
        let (definition, format) = try definitionText(request)
        let added = try releasing { () throws(ReleaseRefusal) in
            try releases.publish(app: app, version: version, text: definition, format: format)
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
        if let name = request.query.keys.sorted().first(where: { $0 != "fallback" }) {
            throw Problem(
                status: 400, code: "unknownParameter", title: "Malformed request",
                detail: "unknown query parameter '\(name)'; allowed: fallback", choices: ["fallback"])
        }
        let fallback = try request.query["fallback"].map(Self.appVersionNumber)
        let report = try releasing { () throws(ReleaseRefusal) in
            try releases.retire(app: app, version: version, fallback: fallback)
        }
        let answer: JSONValue = ["retired": AppVersion(name: app, version: version).json, "sessions": report.json]
        return .json(200, answer.serialized(), headers: noStore)
    }

    /// `PUT /api/admin/apps/{app}/rollout`, `{"shares": [{"version", "weight"}]}`: which versions new sessions get.
    func setRollout(app: String, _ request: HTTPRequest) throws -> HTTPResponse {
        try authorizeAdmin(request)
        try requireJSON(request)
        let body = try decode(RolloutRequest.self, request.body)
        try releasing { () throws(ReleaseRefusal) in
            try releases.setRollout(
                app: app, shares: body.shares.map { PublishedApps.Share(version: $0.version, weight: $0.weight) })
        }
        return try publishedApps(request)
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
        case .sessionsWouldBeLost(let report):
            self.init(
                status: 409, code: "sessionsWouldBeLost", title: "Sessions would be lost",
                detail: "\(report.lost) stored \(report.lost == 1 ? "session runs" : "sessions run") on it that no "
                    + "migration takes to a served version; add a migration, or name a served version with "
                    + "?fallback=N for them to start over on",
                extra: [("sessions", report.json.serialized())])
        case .changedMeanwhile:
            self.init(
                status: 409, code: "changedMeanwhile", title: "Conflict",
                detail: "another admin change of the published apps was stored first; read them again and retry")
        case .store(let incident):
            self = .store(incident)
        }
    }
}
