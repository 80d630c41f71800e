import MicroHTTP

/// CORS around every answer: with an allowed origin (``ServerConfiguration/corsOrigin``), a preflight (`OPTIONS`) of
/// an endpoint is answered here and every response names the origin; without one, nothing is added.
struct CORSPolicy: Sendable {
    /// The origin allowed to call the API from a browser; nil for none.
    let origin: String?

    /// The answer `answer` gives (with its metrics label), or the preflight's, with the CORS headers.
    func around(
        _ request: HTTPRequest, _ route: APIRoute?, _ answer: () -> (String, HTTPResponse)
    ) -> (String, HTTPResponse) {
        guard let origin else { return answer() }
        var (template, response): (String, HTTPResponse)
        if request.method == "OPTIONS", let route {
            template = route.template
            response = HTTPResponse(
                status: 204,
                headers: [
                    ("Access-Control-Allow-Methods", (route.allowed + ["OPTIONS"]).joined(separator: ", ")),
                    ("Access-Control-Allow-Headers", "Content-Type, If-Match, Idempotency-Key, Last-Event-ID"),
                    ("Access-Control-Max-Age", "600"),
                ])
        } else {
            (template, response) = answer()
        }
        response.headers.append(("Access-Control-Allow-Origin", origin))
        response.headers.append(("Vary", "Origin"))
        return (template, response)
    }
}
