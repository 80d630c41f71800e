import Foundation
import Logging
import MicroHTTP
import Switchyard
import SwitchyardServer
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

/// The real server (MicroHTTP + `SwitchyardAPI` hosting the demo) on 127.0.0.1 and a free port.
final class TestServer: Sendable {
    let api: SwitchyardAPI
    let http: HTTPServer
    let port: UInt16

    init(
        _ adjust: (inout ServerConfiguration) -> Void = { _ in },
        transport adjustTransport: (inout HTTPServerConfiguration) -> Void = { _ in }
    ) throws {
        var configuration = ServerConfiguration(apps: [TodoDemo.app])
        configuration.sessionCreationsPerMinute = 0  // tests create many sessions from one address
        adjust(&configuration)
        api = SwitchyardAPI(configuration: configuration, staticFiles: try StaticFiles(root: publicFolder))
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
        try http.start()
        port = http.port
    }

    func stop() { http.stop() }

    /// One request on a fresh connection.
    func request(
        _ method: String, _ path: String, body: String? = nil, contentType: String? = "application/json",
        headers: [(String, String)] = []
    ) throws -> Reply {
        let connection = try Connection(port: port)
        return try connection.request(method, path, body: body, contentType: contentType, headers: headers)
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

// MARK: - A blocking HTTP/1.1 client over a POSIX socket

enum ClientError: Error {
    case connectFailed(Int32)
    case closed
    case malformed(String)
}

/// One TCP connection to the server. Every read has a receive timeout, so a test fails rather than hangs.
final class Connection {
    private let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`; `receiveBuffer` shrinks the socket's receive buffer (a client that stops
    /// reading then holds little in its kernel).
    init(port: UInt16, timeout: Double = 10, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError.connectFailed(errno) }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let error = errno
            Glibc.close(fd)
            throw ClientError.connectFailed(error)
        }
    }

    deinit { Glibc.close(fd) }

    /// Sends a request and reads its response; the connection stays open for the next request.
    func request(
        _ method: String, _ path: String, body: String? = nil, contentType: String? = "application/json",
        headers: [(String, String)] = []
    ) throws -> Reply {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let bytes = Array((body ?? "").utf8)
        if body != nil {
            if let contentType { head += "Content-Type: \(contentType)\r\n" }
            head += "Content-Length: \(bytes.count)\r\n"
        } else if method == "POST" {
            head += "Content-Length: 0\r\n"
        }
        try send(Array((head + "\r\n").utf8) + bytes)
        return try readResponse(method: method)
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw ClientError.closed }
            offset += sent
        }
    }

    /// Reads one response (Content-Length or chunked body).
    func readResponse(method: String) throws -> Reply {
        let (status, headers) = try readHead()
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name }?.1 }
        if method == "HEAD" || status == 204 || status == 304 {
            return Reply(status: status, headers: headers, body: [])
        }
        var body: [UInt8] = []
        if header("transfer-encoding")?.lowercased() == "chunked" {
            while let chunk = try readChunk(), !chunk.isEmpty { body += chunk }
        } else if let length = header("content-length").flatMap(Int.init) {
            body = try readExactly(length)
        } else {
            while let more = fill(), !more.isEmpty { body += more }
        }
        return Reply(status: status, headers: headers, body: body)
    }

    /// Reads the status line and header fields.
    func readHead() throws -> (Int, [(String, String)]) {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { throw ClientError.malformed(statusLine) }
        var headers: [(String, String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw ClientError.malformed(line) }
            headers.append(
                (
                    String(line[..<colon]),
                    String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                ))
        }
        return (status, headers)
    }

    /// One chunk of a chunked body; empty at the terminating chunk, nil at EOF or timeout.
    func readChunk() throws -> [UInt8]? {
        guard let sizeLine = try? readLine() else { return nil }
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
            throw ClientError.malformed(sizeLine)
        }
        if size == 0 {
            _ = try? readLine()
            return []
        }
        let data = try readExactly(size)
        _ = try readLine()
        return data
    }

    private func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<newline])
                buffer.removeFirst(newline + 1)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard let more = fill(), !more.isEmpty else { throw ClientError.closed }
            buffer += more
        }
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard let more = fill(), !more.isEmpty else { throw ClientError.closed }
            buffer += more
        }
        let result = Array(buffer[..<count])
        buffer.removeFirst(count)
        return result
    }

    /// One recv; nil on timeout or error, empty at EOF.
    private func fill() -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &chunk, chunk.count, 0)
        guard count >= 0 else { return nil }
        return Array(chunk[..<count])
    }
}

// MARK: - Server-sent events

/// One server-sent event.
struct ServerEvent: Sendable {
    var id: String?
    var event: String?
    var data: String

    var json: JSONValue { (try? JSONValue(parsing: Array(data.utf8))) ?? .null }
}

/// A subscriber on `GET /api/sessions/{id}/stream` over a raw socket.
final class StreamSubscriber {
    private let connection: Connection
    private var text = ""
    let status: Int
    let headers: [(String, String)]

    /// Subscribes; `receiveBuffer` shrinks the socket's receive buffer (for a subscriber that stops reading).
    init(port: UInt16, path: String, lastEventID: String? = nil, receiveBuffer: Int32? = nil) throws {
        connection = try Connection(port: port, timeout: 5, receiveBuffer: receiveBuffer)
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        if let lastEventID { head += "Last-Event-ID: \(lastEventID)\r\n" }
        try connection.send(Array((head + "\r\n").utf8))
        (status, headers) = try connection.readHead()
    }

    /// The next event (heartbeat comments skipped); nil if none arrives within `seconds` or the stream ends.
    func next(within seconds: Double = 5) throws -> ServerEvent? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let end = text.range(of: "\n\n") {
                let block = String(text[..<end.lowerBound])
                text.removeSubrange(..<end.upperBound)
                if let event = Self.parse(block) { return event }
                continue
            }
            // Heartbeats keep arriving, so the receive timeout alone would never end the wait.
            guard Date() < deadline, let chunk = try connection.readChunk(), !chunk.isEmpty else { return nil }
            text += String(decoding: chunk, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        }
    }

    /// The next event named `state` whose id is `version` or later.
    func nextState(atLeast version: Int, within seconds: Double = 5) throws -> ServerEvent? {
        let deadline = Date().addingTimeInterval(seconds)
        while let event = try next(within: deadline.timeIntervalSinceNow) {
            if event.event == "state", let id = event.id.flatMap(Int.init), id >= version { return event }
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

/// A value shared between threads.
final class Locked<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    var value: Value { storage.withLock { $0 } }
    func mutate<Result: Sendable>(_ body: (inout Value) -> Result) -> Result { storage.withLock { body(&$0) } }
}

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

/// Polls `condition` until it holds or `seconds` pass; returns its last value (never asserts time).
func eventually(within seconds: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    return try condition()
}
