import MicroHTTP

/// The secret the admin endpoints (`/api/admin/…`) require as `Authorization: Bearer <token>`, compared in constant
/// time. Without one configured the admin endpoints are off: they answer 404 like any path the API does not have.
struct AdminToken: Sendable {
    /// The shortest token accepted: a guessable one would open the admin endpoints.
    static let minimumLength = 16

    private let bytes: [UInt8]

    /// The token `text`; nil when there is none, or when it is shorter than ``minimumLength`` (then the admin
    /// endpoints stay off: `NavigationServer` and the command line refuse to start on it).
    init?(_ text: String?) {
        guard let text, text.utf8.count >= Self.minimumLength else { return nil }
        bytes = Array(text.utf8)
    }

    /// Throws 401 unless `request` carries the token; 400 when it carries a token in its query (`?access_token=`),
    /// where proxies, browsers' histories and access logs would keep it: never accepted there, even when right.
    func authorize(_ request: HTTPRequest) throws(Problem) {
        if let name = request.query.keys.sorted().first(where: HTTPServerConfiguration.isSecretParameter) {
            throw Problem(
                status: 400, code: "tokenInQuery", title: "Invalid request",
                detail: "the query parameter '\(name)' looks like a credential: send the admin token as "
                    + "Authorization: Bearer <token>, never in the URL (it is not accepted there)")
        }
        let header = request.headers["authorization"] ?? ""
        let scheme = "bearer "
        guard header.count > scheme.count, header.prefix(scheme.count).lowercased() == scheme else {
            throw Self.refusal("send the admin token as Authorization: Bearer <token>")
        }
        guard Self.equal(Array(header.utf8.dropFirst(scheme.utf8.count)), bytes) else {
            throw Self.refusal("the admin token is not the one this server was given")
        }
    }

    /// Whether `given` is `expected`, in a time that depends on the length of `given` only (never on where they
    /// differ, nor on the expected token's length).
    static func equal(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: given.count ^ expected.count)
        for (index, byte) in given.enumerated() {
            difference |= byte ^ (expected.isEmpty ? 0 : expected[index % expected.count])
        }
        return difference == 0 && given.count == expected.count
    }

    private static func refusal(_ detail: String) -> Problem {
        Problem(
            status: 401, code: "adminTokenRequired", title: "Unauthorized", detail: detail,
            headers: [("WWW-Authenticate", #"Bearer realm="switchyard-admin""#)])
    }
}
