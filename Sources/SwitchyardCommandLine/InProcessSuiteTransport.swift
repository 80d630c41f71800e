import MicroHTTP
import Switchyard
import SwitchyardExplorer
import SwitchyardServer

/// A ``SuiteTransport`` answered by the server's API in this process, without a socket: what a suite written by
/// `switchyard paths --format swift` runs on. Sessions are kept in memory; every session creation is allowed (a
/// suite creates one per case).
public struct InProcessSuiteTransport: SuiteTransport {
    private let api: SwitchyardAPI

    /// An API serving `apps` (the first the default), in memory.
    public init(apps: [NavigationApp]) {
        var configuration = ServerConfiguration(apps: apps)
        configuration.sessionCreationsPerMinute = 0
        api = SwitchyardAPI(configuration: configuration)
    }

    /// One request handled by the API in process: its status and JSON body (nil when it has none).
    public func send(_ method: String, _ path: String, body: JSONValue?) throws -> (status: Int, body: JSONValue?) {
        var headers = HTTPHeaders([("Host", "localhost")])
        if body != nil { headers.add(name: "Content-Type", value: "application/json") }
        let request = HTTPRequest(
            method: method, target: path, headers: headers, body: body.map { Array($0.serialized()) } ?? [],
            peer: "127.0.0.1")
        let response = try api.handle(request)
        guard case .bytes(let bytes) = response.body, !bytes.isEmpty else { return (response.status, nil) }
        return (response.status, try JSONValue(parsing: bytes))
    }
}
