import MicroHTTP

/// The benchmark's handler: `GET /` answers a tiny JSON document; anything else is a 404 problem.
struct HelloHandler: HTTPHandler {
    private let hello = Array(#"{"hello":"world"}"#.utf8)

    func handle(_ request: HTTPRequest) throws -> HTTPResponse {
        guard request.path == "/" || request.path == "/hello" else {
            return .problem(status: 404, title: "Not Found", detail: "No such resource.")
        }
        return .json(200, hello)
    }
}
