import Foundation
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

/// A parsed HTTP response read from a raw socket.
struct RawResponse {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
    /// The decoded JSON body as a dictionary (empty if not an object).
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }
}

enum RawError: Error {
    case connectFailed(Int32)
    case closed
    case malformed(String)
}

/// A blocking HTTP/1.1 client over a POSIX socket, for keep-alive checks and malformed requests.
/// Every read has a receive timeout, so a test fails rather than hangs.
final class RawConnection {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16, from source: String? = nil, timeout: Double = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw RawError.connectFailed(errno) }  // deinit closes fd
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw RawError.connectFailed(errno) }  // deinit closes fd
    }

    deinit { Glibc.close(fd) }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw RawError.closed }
            offset += sent
        }
    }

    /// Sends a simple request and reads its response.
    func request(
        _ method: String = "GET", _ target: String, headers: [String] = [], body: String = ""
    )
        throws -> RawResponse
    {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for header in headers { head += header + "\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.utf8.count)\r\n" }
        try send(head + "\r\n" + body)
        return try readResponse(method: method)
    }

    /// Reads one response (Content-Length or chunked body).
    func readResponse(method: String = "GET") throws -> RawResponse {
        var (status, headers) = try readHead()
        var body: [UInt8] = []
        if method == "HEAD" || status == 304 || status == 204 {
            return RawResponse(status: status, headers: headers, body: [])
        }
        if headers["Transfer-Encoding"]?.lowercased() == "chunked" {
            while let chunk = try readChunk(), !chunk.isEmpty { body += chunk }
            headers.remove(name: "Transfer-Encoding")
        } else if let length = headers["Content-Length"].flatMap(Int.init) {
            body = try readExactly(length)
        } else {
            body = readToEnd()
        }
        return RawResponse(status: status, headers: headers, body: body)
    }

    /// Reads the status line and header fields.
    func readHead() throws -> (Int, HTTPHeaders) {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { throw RawError.malformed(statusLine) }
        var headers = HTTPHeaders()
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw RawError.malformed(line) }
            headers.add(
                name: String(line[..<colon]),
                value: String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
        return (status, headers)
    }

    /// Reads one chunk of a chunked body; empty at the terminating chunk, nil at EOF.
    func readChunk() throws -> [UInt8]? {
        guard let sizeLine = try? readLine() else { return nil }
        guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else {
            throw RawError.malformed(sizeLine)
        }
        if size == 0 {
            _ = try? readLine()
            return []
        }
        let data = try readExactly(size)
        _ = try readLine()
        return data
    }

    /// True if the server closed the connection (EOF or reset) before the receive timeout.
    func isClosedByPeer() -> Bool {
        if !buffer.isEmpty { return false }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        if count == 0 { return true }
        if count < 0 { return errno == ECONNRESET }
        buffer.append(byte)
        return false
    }

    /// Reads and drops whatever the server sent until it closes: true at EOF or reset, false when a
    /// read times out with the connection still open.
    func drainsToClose() -> Bool {
        buffer = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    /// Reads everything until the server closes (or the timeout).
    func readToEnd() -> [UInt8] {
        var result = buffer
        buffer = []
        while let more = fill(), !more.isEmpty { result += more }
        return result
    }

    private func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<newline])
                buffer.removeFirst(newline + 1)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard let more = fill(), !more.isEmpty else { throw RawError.closed }
            buffer += more
        }
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard let more = fill(), !more.isEmpty else { throw RawError.closed }
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

/// Polls `condition` until it holds or `seconds` pass; returns its last value (never asserts time).
func eventually(within seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// Runs `body` on a new thread. (Dispatch's global queues are as wide as the core count, and
/// tests block threads: with 2 cores a queued block could wait for the blocked ones.)
func onNewThread(_ body: @escaping @Sendable () -> Void) {
    Thread.detachNewThread(body)
}

/// A thread-safe box for values recorded by handlers and callbacks.
final class Recorder<Value: Sendable>: Sendable {
    private let storage: Mutex<[Value]>
    init() { storage = Mutex([]) }
    func append(_ value: Value) { storage.withLock { $0.append(value) } }
    var values: [Value] { storage.withLock { $0 } }
}

/// Runs `body` on a new thread and waits at most `seconds` for it: false if it did not return (a
/// deadlock), so that such a test fails quickly instead of hanging the run. A thread that never
/// returns is left behind.
func finishes(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    onNewThread {
        body()
        done.signal()
    }
    return done.wait(timeout: .now() + seconds) == .success
}

extension RawConnection {
    /// Shrinks the socket's receive buffer, so that a client that stops reading holds little in its kernel.
    func shrinkReceiveBuffer() {
        var size: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
}
