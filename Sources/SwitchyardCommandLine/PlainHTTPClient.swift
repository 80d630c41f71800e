import Foundation
import Switchyard
import SwitchyardExplorer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small blocking HTTP/1.1 client for `switchyard test`: one connection per request (`Connection: close`), JSON
/// bodies, plain `http://` (a suite is run against a test server, often on this machine); every read and write
/// waits at most 30 s.
struct PlainHTTPClient: SuiteTransport {
    /// A failure to reach the server or to read its answer.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let host: String
    let port: String
    let prefix: String

    /// A client of the server at `baseURL` (`http://host:port`, with an optional path prefix).
    init(baseURL: String) throws(Failure) {
        guard baseURL.hasPrefix("http://") else {
            throw Failure(description: "--server takes an http:// URL (\(baseURL))")
        }
        let rest = baseURL.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" }
        prefix = String(rest.dropFirst(authority.count)).trimmingSuffix("/")
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            host = String(authority[..<colon])
            port = String(authority[authority.index(after: colon)...])
        } else {
            host = String(authority)
            port = "80"
        }
        guard !host.isEmpty, Int(port) != nil else { throw Failure(description: "'\(baseURL)' has no host and port") }
    }

    /// Sends the request; a `429` is sent again after its `Retry-After` (at most 60 s in all: a server's limit on
    /// sessions created per address slows a suite down, never fails it).
    func send(_ method: String, _ path: String, body: JSONValue?) throws -> (status: Int, body: JSONValue?) {
        var waited = 0
        while true {
            let answer = try sendOnce(method, path, body: body)
            guard answer.status == 429, let pause = answer.retryAfter, waited + pause <= 60 else {
                return (answer.status, answer.body)
            }
            sleep(UInt32(max(pause, 1)))
            waited += max(pause, 1)
        }
    }

    private func sendOnce(
        _ method: String, _ path: String, body: JSONValue?
    ) throws -> (status: Int, body: JSONValue?, retryAfter: Int?) {
        let payload = body?.serialized() ?? []
        var head = "\(method) \(prefix)\(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        head += "Accept: application/json\r\nContent-Length: \(payload.count)\r\n"
        if body != nil { head += "Content-Type: application/json\r\n" }
        let socket = try connect()
        defer { close(socket) }
        try write(Array((head + "\r\n").utf8) + payload, to: socket)
        return try Self.parse(try readAll(socket))
    }

    private func connect() throws(Failure) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        guard getaddrinfo(bare, port, &hints, &found) == 0, let first = found else {
            throw Failure(description: "cannot resolve \(host)")
        }
        defer { freeaddrinfo(first) }
        var address: UnsafeMutablePointer<addrinfo>? = first
        while let current = address {
            let socket = Glibc.socket(
                current.pointee.ai_family, current.pointee.ai_socktype, current.pointee.ai_protocol)
            if socket >= 0 {
                var timeout = timeval(tv_sec: 30, tv_usec: 0)
                setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                if Glibc.connect(socket, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 { return socket }
                close(socket)
            }
            address = current.pointee.ai_next
        }
        throw Failure(description: "cannot connect to \(host):\(port)")
    }

    private func write(_ bytes: [UInt8], to socket: Int32) throws(Failure) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { throw Failure(description: "the server closed the connection while we wrote") }
            sent += count
        }
    }

    private func readAll(_ socket: Int32) throws(Failure) -> [UInt8] {
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { return answer }
            guard count > 0 else { throw Failure(description: "no answer from the server within 30 s") }
            answer += buffer[..<count]
            guard answer.count <= 64 << 20 else { throw Failure(description: "an answer of more than 64 MiB") }
        }
    }

    /// The status, JSON body and `Retry-After` (seconds) of a whole response (`Content-Length` or chunked).
    private static func parse(_ bytes: [UInt8]) throws(Failure) -> (status: Int, body: JSONValue?, retryAfter: Int?) {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            throw Failure(description: "the server's answer has no complete head")
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\r\n")
        let statusLine = head.first?.split(separator: " ") ?? []
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "the server's answer has no status")
        }
        var body = Array(bytes[(end + separator.count)...])
        if head.contains(where: { $0.lowercased() == "transfer-encoding: chunked" }) { body = dechunked(body) }
        let retryAfter = head.first { $0.lowercased().hasPrefix("retry-after:") }
            .flatMap { Int($0.dropFirst("retry-after:".count).trimmingCharacters(in: .whitespaces)) }
        return (status, body.isEmpty ? nil : try? JSONValue(parsing: body), retryAfter)
    }

    private static func dechunked(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while let lineEnd = bytes[index...].firstIndex(of: UInt8(ascii: "\r")),
            let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self), radix: 16), size > 0
        {
            let start = lineEnd + 2
            guard start + size <= bytes.count else { break }
            result += bytes[start..<(start + size)]
            index = start + size + 2
            guard index < bytes.count else { break }
        }
        return result
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
