/// Why an ``HTTPServer`` could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The address could not be bound, e.g. the port is in use.
    case bindFailed(host: String, port: UInt16, reason: String)
    /// The host is not an IPv4 or IPv6 address literal.
    case invalidHost(String)
    /// libmicrohttpd refused to start (the reason is what it logged, if anything).
    case startFailed(reason: String)
    /// ``HTTPServer/start()`` was called on a server that was already started.
    case alreadyStarted

    /// A readable explanation.
    public var description: String {
        switch self {
        case .bindFailed(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
        case .invalidHost(let host): "not an IP address: \(host)"
        case .startFailed(let reason): "libmicrohttpd did not start: \(reason)"
        case .alreadyStarted: "the server was already started"
        }
    }
}
