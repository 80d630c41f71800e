import Foundation
import Switchyard
import SwitchyardExplorer
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small blocking HTTP/1.1 client for `switchyard test`: JSON bodies, plain `http://` (a suite is run against a
/// test server, often on this machine); every read and write waits at most 30 s. Connections are kept open and
/// reused (one per case running at once): a new connection per request cost the server and the client more than
/// the requests (the demo's data twin's suite, 78,219 requests, ran in 60 s that way). A request that finds its
/// reused connection closed by the server before any answer (an idle keep-alive timeout) is sent once more on a
/// new connection.
struct PlainHTTPClient: SuiteTransport {
    /// A failure to reach the server or to read its answer.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let host: String
    let port: String
    let prefix: String
    /// Connected sockets waiting for their next request.
    private let idle = IdleConnections()

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
        var head = "\(method) \(prefix)\(path) HTTP/1.1\r\nHost: \(host):\(port)\r\n"
        head += "Accept: application/json\r\nContent-Length: \(payload.count)\r\n"
        if body != nil { head += "Content-Type: application/json\r\n" }
        let request = Array((head + "\r\n").utf8) + payload
        if let socket = idle.take() {
            switch exchange(request, on: socket) {
            case .answered(let answer): return answer
            case .closedBeforeAnswering: break  // the server closed it while it was idle: a new connection
            case .failed(let failure): throw failure
            }
        }
        switch exchange(request, on: try connect()) {
        case .answered(let answer): return answer
        case .closedBeforeAnswering: throw Failure(description: "the server closed the connection without answering")
        case .failed(let failure): throw failure
        }
    }

    /// What one request on one connection came to.
    private enum Exchange {
        case answered((status: Int, body: JSONValue?, retryAfter: Int?))
        /// Nothing of an answer arrived before the connection closed (or the request could not be written).
        case closedBeforeAnswering
        case failed(Failure)
    }

    /// Sends `request` on `socket` and reads its whole answer; the socket goes back to the idle ones when the
    /// server keeps it open, else it is closed.
    private func exchange(_ request: [UInt8], on socket: Int32) -> Exchange {
        guard (try? write(request, to: socket)) != nil else {
            close(socket)
            return .closedBeforeAnswering
        }
        do {
            guard let (answer, keepOpen) = try readAnswer(socket) else {
                close(socket)
                return .closedBeforeAnswering
            }
            if keepOpen { idle.put(socket) } else { close(socket) }
            return .answered(answer)
        } catch {
            close(socket)
            return .failed(error)
        }
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

    /// One whole answer (its length from `Content-Length`, chunked encoding, or the connection's end) and whether
    /// the connection stays open for the next request; nil when it closed before the first byte.
    private func readAnswer(
        _ socket: Int32
    ) throws(Failure) -> ((status: Int, body: JSONValue?, retryAfter: Int?), Bool)? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var head: Head?
        while true {
            if head == nil, let end = Self.headEnd(bytes) { head = try Self.head(bytes[..<end], bodyAt: end + 4) }
            if let head, let complete = head.complete(bytes) {
                let retryAfter = head.retryAfter
                let body = complete.isEmpty ? nil : try? JSONValue(parsing: complete)
                return ((head.status, body, retryAfter), head.keepOpen)
            }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 {
                if bytes.isEmpty { return nil }
                // The answer ends with the connection.
                guard let head else { throw Failure(description: "the server's answer has no complete head") }
                let body = head.body(of: bytes)
                return ((head.status, body.isEmpty ? nil : try? JSONValue(parsing: body), head.retryAfter), false)
            }
            guard count > 0 else { throw Failure(description: "no answer from the server within 30 s") }
            bytes += buffer[..<count]
            guard bytes.count <= 64 << 20 else { throw Failure(description: "an answer of more than 64 MiB") }
        }
    }

    /// An answer's head: its status and what says where its body ends.
    private struct Head {
        let status: Int
        let bodyStart: Int
        let length: Int?
        let chunked: Bool
        let keepOpen: Bool
        let retryAfter: Int?

        /// The body, once `bytes` hold all of it.
        func complete(_ bytes: [UInt8]) -> [UInt8]? {
            if let length {
                return bytes.count >= bodyStart + length ? Array(bytes[bodyStart..<(bodyStart + length)]) : nil
            }
            if chunked, bytes.count >= bodyStart + 5, bytes[(bytes.count - 5)...].elementsEqual("0\r\n\r\n".utf8) {
                return PlainHTTPClient.dechunked(Array(bytes[bodyStart...]))
            }
            return nil
        }

        func body(of bytes: [UInt8]) -> [UInt8] {
            let rest = Array(bytes[min(bodyStart, bytes.count)...])
            return chunked ? PlainHTTPClient.dechunked(rest) : rest
        }
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first { index in
            bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10
        }
    }

    private static func head(_ bytes: ArraySlice<UInt8>, bodyAt start: Int) throws(Failure) -> Head {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n")
        let statusLine = lines.first?.split(separator: " ") ?? []
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "the server's answer has no status")
        }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let chunked = fields["transfer-encoding"]?.lowercased() == "chunked"
        let length = chunked ? nil : fields["content-length"].flatMap { Int($0) }
        // Without a length (and not chunked) the body ends with the connection; a 1xx, 204 or 304 has none.
        let bodiless = (100..<200).contains(status) || status == 204 || status == 304
        return Head(
            status: status, bodyStart: start, length: bodiless ? 0 : length, chunked: chunked && !bodiless,
            keepOpen: fields["connection"]?.lowercased() != "close" && (bodiless || length != nil || chunked),
            retryAfter: fields["retry-after"].flatMap { Int($0) })
    }

    fileprivate static func dechunked(_ bytes: [UInt8]) -> [UInt8] {
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

/// Connected sockets between requests, shared by the cases running at once.
private final class IdleConnections: Sendable {
    private let sockets = Mutex<[Int32]>([])

    func take() -> Int32? { sockets.withLock { $0.popLast() } }
    func put(_ socket: Int32) { sockets.withLock { $0.append(socket) } }

    deinit {
        for socket in sockets.withLock({ $0 }) { close(socket) }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
