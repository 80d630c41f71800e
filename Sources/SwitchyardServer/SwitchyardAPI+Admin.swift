import MicroHTTP
import SwitchyardJSON
import SwitchyardSessions

/// The admin endpoints: operations on every stored session, for releases. Off (404) unless the server was given an
/// admin token (``ServerConfiguration/adminToken``); each request must carry it (checked once, for every route under
/// `/api/admin/`, by ``APIRoute/answer(_:path:api:)``).
extension SwitchyardAPI {
    /// `GET /api/admin/migrations`: what the served app versions would do with every stored session (a dry run,
    /// changing nothing). `POST`: migrates the sessions that migrate, each as a new version of it.
    func migrations(_ request: HTTPRequest, apply: Bool) throws -> HTTPResponse {
        if apply, !request.body.isEmpty {
            // No member is defined: anything but an empty object is refused, never ignored.
            try requireJSON(request)
            guard case .object(let members)? = try? JSONValue(parsing: request.body) else {
                throw Problem(
                    status: 400, code: "malformedBody", title: "Malformed request",
                    detail: "the body must be empty or an empty JSON object, {}")
            }
            if let name = members.keys.sorted().first {
                throw Problem(
                    status: 400, code: "unknownMember", title: "Malformed request",
                    detail: "unknown member '\(name)' in the body; this request has no members")
            }
        }
        let report = migrateStored(apply: apply)
        if report.failure != nil {  // logged by the session layer
            throw Problem(
                status: 503, code: "storeUnavailable", title: "Service unavailable",
                detail: "the pass over the stored sessions stopped: the store failed (the server's log says why)",
                headers: [("Retry-After", "5")])
        }
        return .json(200, report.json.serialized(), headers: noStore)
    }

    /// Throws 404 when the admin endpoints are off, 401 when `request` does not carry the admin token. The one check
    /// of every admin endpoint (``APIRoute/isAdmin``).
    func authorizeAdmin(_ request: HTTPRequest) throws {
        guard let token = adminToken else {
            throw Problem.notFound("no API endpoint at \(request.path)", code: "noSuchEndpoint")
        }
        try token.authorize(request)
    }
}
