import Foundation
@_exported import HTTPTestSupport
import Logging
import MicroHTTP
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A logger that drops everything (keeps test output readable).
let quietLogger = Logger(label: "MicroHTTPTests", factory: { _ in SwiftLogNoOpLogHandler() })

/// A configuration suited to tests: any free port, small timeouts.
func testConfiguration(_ adjust: (inout HTTPServerConfiguration) -> Void = { _ in }) -> HTTPServerConfiguration {
    var configuration = HTTPServerConfiguration()
    configuration.host = "127.0.0.1"
    configuration.port = 0
    configuration.threads = 2
    configuration.idleTimeout = .seconds(5)
    configuration.heartbeatInterval = .milliseconds(200)
    configuration.shutdownGrace = .seconds(3)
    adjust(&configuration)
    return configuration
}

/// Starts a server with `handle`, runs `body` with it, and stops it.
func withServer<Result>(
    _ configuration: HTTPServerConfiguration = testConfiguration(), logger: Logger = quietLogger,
    handle: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse,
    _ body: (HTTPServer) throws -> Result
) throws -> Result {
    let server = HTTPServer(configuration: configuration, handler: ClosureHTTPHandler(handle), logger: logger)
    try server.start()
    defer { server.stop() }
    return try body(server)
}

/// An echo handler: answers the request's fields as JSON.
@Sendable func echo(_ request: HTTPRequest) throws -> HTTPResponse {
    let object: [String: Any] = [
        "method": request.method, "path": request.path, "rawPath": request.rawPath, "query": request.query,
        "body": String(decoding: request.body, as: UTF8.self), "peer": request.peer,
        "headers": Dictionary(request.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { $1 }),
    ]
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    return .json(200, Array(data))
}
