/// One HTTP request as received by the server, fully read (body included).
public struct HTTPRequest: Sendable {
    /// The request method, e.g. `"GET"`.
    public var method: String
    /// The percent-decoded path without the query, e.g. `"/api/sessions/abc"`.
    public var path: String
    /// The path as received (still percent-encoded), without the query.
    public var rawPath: String
    /// The decoded query parameters; for a repeated name the last value wins.
    public var query: [String: String]
    /// The request header fields (case-insensitive lookup, repeated names kept).
    public var headers: HTTPHeaders
    /// The request body bytes (empty if none).
    public var body: [UInt8]
    /// The client's IP address, e.g. `"127.0.0.1"`.
    public var peer: String

    /// Creates a request; the server builds these, tests and adapters may too.
    public init(
        method: String = "GET", path: String = "/", rawPath: String? = nil, query: [String: String] = [:],
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], peer: String = "127.0.0.1"
    ) {
        self.method = method
        self.path = path
        self.rawPath = rawPath ?? path
        self.query = query
        self.headers = headers
        self.body = body
        self.peer = peer
    }

    /// Creates a request from a request target such as `"/a%20b?x=1&y=2"`, decoding path and query.
    public init(
        method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        peer: String = "127.0.0.1"
    ) {
        let parts = URLComponentsParser.split(target: target)
        self.init(
            method: method, path: URLComponentsParser.decodePath(parts.rawPath), rawPath: parts.rawPath,
            query: URLComponentsParser.decodeQuery(parts.rawQuery), headers: headers, body: body, peer: peer)
    }
}
