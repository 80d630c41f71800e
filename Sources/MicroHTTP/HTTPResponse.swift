/// The answer to one request: a status, header fields and a body (bytes or an event stream).
public struct HTTPResponse: Sendable {
    /// The HTTP status code, e.g. 200. Values outside 100...599 are sent as 500.
    public var status: Int
    /// Header fields in order; repeated names are allowed (e.g. several `Set-Cookie`).
    ///
    /// `Content-Length`, `Date` and `Connection` are managed by the server.
    public var headers: [(String, String)]
    /// The body to send.
    public var body: Body

    /// What a response carries after its header.
    public enum Body: Sendable {
        /// A complete body, sent with a `Content-Length`.
        case bytes([UInt8])
        /// A Server-Sent Events stream held open until closed; see ``EventStream``.
        case stream(EventStream.Start)
    }

    /// Creates a response with a byte body.
    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = .bytes(body)
    }

    /// A response whose body is JSON (`Content-Type: application/json`).
    public static func json(_ status: Int, _ bytes: [UInt8], headers: [(String, String)] = []) -> HTTPResponse {
        let type = ("Content-Type", "application/json")
        return HTTPResponse(status: status, headers: headers.isEmpty ? [type] : [type] + headers, body: bytes)
    }

    /// A response whose body is UTF-8 text (`Content-Type: text/plain; charset=utf-8`).
    public static func text(_ status: Int, _ text: String, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, body: Array(text.utf8))
    }

    /// An RFC 9457 problem response (`application/problem+json`):
    /// `{"type":…,"title":…,"status":…,"detail":…}`.
    public static func problem(
        status: Int, title: String, detail: String, type: String = "about:blank"
    )
        -> HTTPResponse
    {
        var json = "{\"type\":"
        JSONText.appendString(type, to: &json)
        json += ",\"title\":"
        JSONText.appendString(title, to: &json)
        json += ",\"status\":\(status),\"detail\":"
        JSONText.appendString(detail, to: &json)
        json += "}"
        return HTTPResponse(
            status: status, headers: [("Content-Type", "application/problem+json")], body: Array(json.utf8))
    }

    /// A Server-Sent Events response (`text/event-stream`, not cached, not buffered by proxies).
    ///
    /// Once the stream is open the server calls `start` with it, on a server thread; keep the
    /// ``EventStream`` and call ``EventStream/send(id:event:data:)`` from any thread (to send one
    /// event to many streams, encode it once as an ``EventFrame`` and call ``EventStream/send(_:)``).
    public static func eventStream(
        headers: [(String, String)] = [], _ start: @escaping EventStream.Start
    )
        -> HTTPResponse
    {
        var response = HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no"),
            ] + headers)
        response.body = .stream(start)
        return response
    }

    /// The first value of header `name` (case-insensitive), or nil.
    public func header(_ name: String) -> String? {
        headers.first { HTTPHeaders.equalNames($0.0, name) }?.1
    }
}
