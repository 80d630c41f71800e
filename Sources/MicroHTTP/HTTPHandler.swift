/// What the application implements to answer requests.
public protocol HTTPHandler: Sendable {
    /// Called on a server worker thread; may run concurrently for different requests.
    ///
    /// A thrown error never takes the server down: the client gets a 500 problem response.
    func handle(_ request: HTTPRequest) throws -> HTTPResponse
}

/// An ``HTTPHandler`` made from a closure, handy for tests and small tools.
public struct ClosureHTTPHandler: HTTPHandler {
    private let body: @Sendable (HTTPRequest) throws -> HTTPResponse

    /// Wraps `body` as a handler.
    public init(_ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) {
        self.body = body
    }

    /// Calls the wrapped closure.
    public func handle(_ request: HTTPRequest) throws -> HTTPResponse {
        try body(request)
    }
}
