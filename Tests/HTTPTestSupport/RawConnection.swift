import Foundation
import MicroHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// Why a raw connection failed.
public enum RawError: Error {
    case connectFailed(Int32)
    case closed
    case malformed(String)
}

/// A parsed HTTP response read from a raw socket.
public struct RawResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The decoded JSON body as a dictionary (empty if not an object).
    public var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }
}

/// A blocking HTTP/1.1 client over a POSIX socket, for the tests of every module: keep-alive, malformed requests,
/// event streams. Every read has a receive timeout, so a test fails rather than hangs.
public final class RawConnection {
    public let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`, from the local address `source` when given; `receiveBuffer` shrinks the
    /// socket's receive buffer (a client that stops reading then holds little in its kernel).
    public init(port: UInt16, from source: String? = nil, timeout: Double = 5, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawError.connectFailed(errno) }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
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

    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw RawError.closed }
            offset += sent
        }
    }

    /// Sends a simple request (header lines as `Name: value`) and reads its response.
    public func request(
        _ method: String = "GET", _ target: String, headers: [String] = [], body: String = ""
    ) throws -> RawResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for header in headers { head += header + "\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.utf8.count)\r\n" }
        try send(head + "\r\n" + body)
        return try readResponse(method: method)
    }

    /// Sends a request with a body of type `contentType` (nil body: none; a POST still says `Content-Length: 0`)
    /// and reads its response; the connection stays open for the next request.
    public func exchange(
        _ method: String, _ target: String, body: String? = nil, contentType: String? = "application/json",
        headers: [(String, String)] = []
    ) throws -> RawResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
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

    /// Reads one response (Content-Length, chunked, or until the connection closes).
    public func readResponse(method: String = "GET") throws -> RawResponse {
        var (status, headers) = try readHead()
        if method == "HEAD" || status == 304 || status == 204 {
            return RawResponse(status: status, headers: headers, body: [])
        }
        var body: [UInt8] = []
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
    public func readHead() throws -> (Int, HTTPHeaders) {
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

    /// Reads one chunk of a chunked body; empty at the terminating chunk, nil at EOF or timeout.
    public func readChunk() throws -> [UInt8]? {
        guard let sizeLine = try? readLine() else { return nil }
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
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
    public func isClosedByPeer() -> Bool {
        if !buffer.isEmpty { return false }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        if count == 0 { return true }
        if count < 0 { return errno == ECONNRESET }
        buffer.append(byte)
        return false
    }

    /// Reads and drops whatever the server sent until it closes: true at EOF or reset, false when a read times out
    /// with the connection still open.
    public func drainsToClose() -> Bool {
        buffer = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    /// Reads everything until the server closes (or the timeout).
    public func readToEnd() -> [UInt8] {
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
