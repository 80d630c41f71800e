import Foundation
@_exported import HTTPTestSupport
import Logging
import MicroHTTP
import Switchyard
import SwitchyardServer
import SwitchyardSessions
import Synchronization
import Testing
import TodoDemo

#if canImport(Glibc)
    import Glibc
#endif

// MARK: - Server

/// A logger that drops everything (keeps test output readable).
let quietLogger = Logger(label: "SwitchyardServerTests", factory: { _ in SwiftLogNoOpLogHandler() })

/// The page's folder (`Public/` at the package root), found from this file so the working directory does not matter.
let publicFolder: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Public").path

/// The real server (MicroHTTP + `SwitchyardAPI` hosting the demo): answered in process, or on 127.0.0.1 and a free
/// port once a test asks for ``port``.
final class TestServer: Sendable {
    let api: SwitchyardAPI
    private let http: HTTPServer
    /// Whether the transport was started: only once a test asks for ``port`` (most answer in process and bind none).
    private let started = Mutex(false)

    init(
        _ adjust: (inout ServerConfiguration) -> Void = { _ in },
        transport adjustTransport: (inout HTTPServerConfiguration) -> Void = { _ in }, logger: Logger = quietLogger
    ) throws {
        var configuration = ServerConfiguration(apps: [TodoDemo.app])
        configuration.sessionCreationsPerMinute = 0  // tests create many sessions from one address
        adjust(&configuration)
        api = SwitchyardAPI(
            configuration: configuration, staticFiles: try StaticFiles(root: publicFolder), logger: logger)
        var transport = HTTPServerConfiguration()
        transport.host = "127.0.0.1"
        transport.port = 0
        transport.threads = 4
        transport.maxConnectionsPerIP = 1000
        transport.idleTimeout = .seconds(10)
        transport.heartbeatInterval = .seconds(1)
        transport.shutdownGrace = .seconds(2)
        adjustTransport(&transport)
        http = HTTPServer(configuration: transport, handler: api, logger: quietLogger)
    }

    /// The port the real server listens on, started now if it was not yet (127.0.0.1, a free port); 0 if it could
    /// not start (every connection to it then fails).
    var port: UInt16 {
        started.withLock { started in
            if !started {
                do {
                    try http.start()
                    started = true
                } catch {
                    Issue.record(error, "the test server did not start")
                }
            }
            return http.port
        }
    }

    func stop() {
        started.withLock { started in
            if started { http.stop() }
            started = false
        }
    }

    /// One request, answered in process by the API (no socket): what most tests need.
    func request(
        _ method: String, _ path: String, body: String? = nil, contentType: String? = "application/json",
        headers: [(String, String)] = []
    ) throws -> Reply {
        var fields = [("Host", "127.0.0.1")] + headers
        if body != nil, let contentType { fields.append(("Content-Type", contentType)) }
        if body != nil || method == "POST" { fields.append(("Content-Length", String((body ?? "").utf8.count))) }
        let request = HTTPRequest(
            method: method, target: path, headers: HTTPHeaders(fields), body: Array((body ?? "").utf8))
        let response = try api.handle(request)
        guard case .bytes(let bytes) = response.body else {
            return Reply(status: response.status, headers: response.headers, body: [])
        }
        return Reply(status: response.status, headers: response.headers, body: method == "HEAD" ? [] : bytes)
    }

    /// One request over a fresh TCP connection to the running server: for what the transport adds.
    func live(
        _ method: String, _ path: String, body: String? = nil, contentType: String? = "application/json",
        headers: [(String, String)] = []
    ) throws -> Reply {
        let connection = try RawConnection(port: port, timeout: 10)
        return Reply(try connection.exchange(method, path, body: body, contentType: contentType, headers: headers))
    }

    func get(_ path: String, headers: [(String, String)] = []) throws -> Reply {
        try request("GET", path, headers: headers)
    }

    func post(_ path: String, _ body: String?, headers: [(String, String)] = []) throws -> Reply {
        try request("POST", path, body: body, headers: headers)
    }

    /// One request handled in process (no socket), as if sent from `peer`.
    func handle(
        _ method: String, _ target: String, body: String? = nil, headers: [(String, String)] = [],
        peer: String = "127.0.0.1"
    ) throws -> Reply {
        var fields = HTTPHeaders([("Host", "127.0.0.1:\(port)")] + headers)
        if body != nil, !fields.contains("Content-Type") { fields.add(name: "Content-Type", value: "application/json") }
        let request = HTTPRequest(
            method: method, target: target, headers: fields, body: Array((body ?? "").utf8), peer: peer)
        let response = try api.handle(request)
        guard case .bytes(let bytes) = response.body else {
            return Reply(status: response.status, headers: [], body: [])
        }
        return Reply(status: response.status, headers: response.headers, body: bytes)
    }

    /// Creates a demo session; fails the test unless the server answers 201.
    func createSession() throws -> DemoSession {
        let reply = try post("/api/sessions", nil)
        try #require(reply.status == 201, "create session: \(reply.status) \(reply.text)")
        let id = try #require(reply.json["session"]?.stringValue)
        return DemoSession(server: self, id: id, created: reply)
    }
}

/// Runs `body` with a started server and stops it afterwards.
func withServer<Result>(
    _ adjust: (inout ServerConfiguration) -> Void = { _ in }, _ body: (TestServer) throws -> Result
) throws -> Result {
    let server = try TestServer(adjust)
    defer { server.stop() }
    return try body(server)
}

/// A session of the demo on a test server, with the requests the page makes.
struct DemoSession: Sendable {
    let server: TestServer
    let id: String
    let created: Reply

    var base: String { "/api/sessions/\(id)" }

    func state() throws -> Reply { try server.get(base) }

    func transition(_ json: String, headers: [(String, String)] = []) throws -> Reply {
        try server.post(base + "/transitions", json, headers: headers)
    }

    func event(_ json: String, headers: [(String, String)] = []) throws -> Reply {
        try server.post(base + "/events", json, headers: headers)
    }

    func deepLink(_ url: String, headers: [(String, String)] = []) throws -> Reply {
        try server.post(base + "/deeplinks", "{\"url\":\"\(url)\"}", headers: headers)
    }

    func history() throws -> Reply { try server.get(base + "/history") }

    /// A change that must succeed (200); fails the test otherwise.
    @discardableResult
    func must(_ reply: Reply, sourceLocation: SourceLocation = #_sourceLocation) throws -> Reply {
        try #require(reply.status == 200, "\(reply.status) \(reply.text)", sourceLocation: sourceLocation)
        return reply
    }

    /// Onboarding done and logged in as `user`: the home tab.
    func logIn(_ user: String = "ada") throws {
        try must(event(#"{"name":"completeOnboarding"}"#))
        try must(event(#"{"name":"login","fields":{"username":"\#(user)"}}"#))
    }
}

// MARK: - Replies

/// An HTTP response as the client saw it.
struct Reply: Sendable {
    let status: Int
    let headers: [(String, String)]
    let body: [UInt8]

    init(status: Int, headers: [(String, String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    init(_ raw: RawResponse) {
        self.init(status: raw.status, headers: raw.headers.map { ($0.name, $0.value) }, body: raw.body)
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as JSON (`.null` when it is not JSON).
    var json: JSONValue { (try? JSONValue(parsing: body)) ?? .null }

    /// The first header of that name (case-insensitive).
    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// `visible.path` of a state document.
    var path: [String] { json["visible"]?["path"]?.strings ?? [] }

    /// `version` of a state document.
    var version: Int? { json["version"]?.int }
}

extension JSONValue {
    var array: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    var int: Int? {
        if case .number(let value) = self, value.rounded() == value { return Int(value) }
        return nil
    }

    var strings: [String]? { array?.compactMap(\.stringValue) }

    subscript(index: Int) -> JSONValue? {
        guard let values = array, values.indices.contains(index) else { return nil }
        return values[index]
    }
}

// MARK: - Server-sent events

/// One server-sent event.
struct ServerEvent: Sendable {
    var id: String?
    var event: String?
    var data: String
    /// The state document after this event: a `state` event's data, or the document a `patch` event's patch made
    /// of the one before (`.null` when it did not apply).
    var document: JSONValue?

    /// The event's document (its data for other events).
    var json: JSONValue { document ?? (try? JSONValue(parsing: Array(data.utf8))) ?? .null }
}

/// A subscriber on `GET /api/sessions/{id}/stream` over a raw socket.
final class StreamSubscriber {
    private let connection: RawConnection
    private var text = ""
    /// The state document as the events so far made it (patches applied as a client does).
    private(set) var document: JSONValue?
    let status: Int
    let headers: [(String, String)]

    /// Subscribes; `receiveBuffer` shrinks the socket's receive buffer (for a subscriber that stops reading).
    init(port: UInt16, path: String, lastEventID: String? = nil, receiveBuffer: Int32? = nil) throws {
        connection = try RawConnection(port: port, timeout: 5, receiveBuffer: receiveBuffer)
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        if let lastEventID { head += "Last-Event-ID: \(lastEventID)\r\n" }
        try connection.send(Array((head + "\r\n").utf8))
        let (status, fields) = try connection.readHead()
        self.status = status
        headers = fields.map { ($0.name, $0.value) }
    }

    /// The next event (heartbeat comments skipped); nil if none arrives within `seconds` or the stream ends.
    func next(within seconds: Double = 5) throws -> ServerEvent? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let end = text.range(of: "\n\n") {
                let block = String(text[..<end.lowerBound])
                text.removeSubrange(..<end.upperBound)
                guard var event = Self.parse(block) else { continue }
                let data = try? JSONValue(parsing: Array(event.data.utf8))
                switch event.event {
                case "state": document = data
                case "patch":
                    document = data.flatMap { patch in document.flatMap { try? JSONPatch.apply(patch, to: $0) } }
                default: break
                }
                if event.event == "state" || event.event == "patch" { event.document = document ?? .null }
                return event
            }
            // Heartbeats keep arriving, so the receive timeout alone would never end the wait.
            guard Date() < deadline, let chunk = try connection.readChunk(), !chunk.isEmpty else { return nil }
            text += String(decoding: chunk, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        }
    }

    /// The next `state` or `patch` event whose id is `version` or later.
    func nextState(atLeast version: Int, within seconds: Double = 5) throws -> ServerEvent? {
        let deadline = Date().addingTimeInterval(seconds)
        while let event = try next(within: deadline.timeIntervalSinceNow) {
            if event.document != nil, let id = event.id.flatMap(Int.init), id >= version { return event }
        }
        return nil
    }

    private static func parse(_ block: String) -> ServerEvent? {
        var event = ServerEvent(id: nil, event: nil, data: "")
        var lines: [String] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") { continue }
            let (name, value) =
                line.firstIndex(of: ":").map { colon in
                    (
                        String(line[..<colon]),
                        String(line[line.index(after: colon)...].drop { $0 == " " })
                    )
                } ?? (String(line), "")
            switch name {
            case "id": event.id = value
            case "event": event.event = value
            case "data": lines.append(value)
            default: break
            }
        }
        guard event.id != nil || event.event != nil || !lines.isEmpty else { return nil }
        event.data = lines.joined(separator: "\n")
        return event
    }
}

// MARK: - Small tools

/// Runs `body(index)` for `count` indices on `count` threads at once and waits for all.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            body(index)
            group.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    group.wait()
}

extension RawConnection {
    /// A JSON request on this keep-alive connection, answered as a ``Reply``.
    func call(
        _ method: String, _ path: String, body: String? = nil, headers: [(String, String)] = []
    ) throws -> Reply {
        Reply(try exchange(method, path, body: body, headers: headers))
    }
}
