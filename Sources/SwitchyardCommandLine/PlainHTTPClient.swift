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
/// the requests (the demo's data twin's suite, 78,219 requests, ran in 34–37 s that way, 24–28 s kept open). An
/// idle connection the server closed is found before a request is sent on it; a request whose reused connection
/// closes before any answer is sent once more on a new one, with the same `Idempotency-Key` (every POST has one),
/// so the server answers a change it already made from its record instead of making it twice.
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
            guard answer.status == 429, let pause = answer.retryAfter, pause <= 60, waited + pause <= 60 else {
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
        // A change sent again (below) is answered from the server's record of its key, never applied twice.
        if method == "POST" { head += "Idempotency-Key: \(UUID().uuidString)\r\n" }
        let request = Array((head + "\r\n").utf8) + payload
        if let socket = idle.take() {
            switch exchange(request, on: socket) {
            case .answered(let answer): return Self.result(answer)
            case .closedBeforeAnswering: break  // the server closed it while it was idle: a new connection
            case .failed(let failure): throw failure
            }
        }
        switch exchange(request, on: try connect()) {
        case .answered(let answer): return Self.result(answer)
        case .closedBeforeAnswering: throw Failure(description: "the server closed the connection without answering")
        case .failed(let failure): throw failure
        }
    }

    /// What one request on one connection came to.
    private enum Exchange {
        case answered(HTTPAnswer)
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
            guard let answer = try readAnswer(socket) else {
                close(socket)
                return .closedBeforeAnswering
            }
            if answer.keepOpen { idle.put(socket) } else { close(socket) }
            return .answered(answer)
        } catch {
            close(socket)
            return .failed(error)
        }
    }

    private static func result(_ answer: HTTPAnswer) -> (status: Int, body: JSONValue?, retryAfter: Int?) {
        (answer.status, answer.body.isEmpty ? nil : try? JSONValue(parsing: answer.body), answer.retryAfter)
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

    /// One whole answer (``HTTPAnswer``); nil when the connection closed (or was reset) before its first byte.
    private func readAnswer(_ socket: Int32) throws(Failure) -> HTTPAnswer? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                let error = errno
                if error == EAGAIN || error == EWOULDBLOCK { throw Failure(description: "no answer within 30 s") }
                if bytes.isEmpty, error == ECONNRESET { return nil }
                throw Failure(description: "reading the answer failed: \(String(cString: strerror(error)))")
            }
            if count == 0 { return bytes.isEmpty ? nil : try HTTPAnswer.read(bytes, closed: true) }
            bytes += buffer[..<count]
            if let answer = try HTTPAnswer.read(bytes, closed: false) { return answer }
        }
    }
}

/// Connected sockets between requests, shared by the cases running at once.
private final class IdleConnections: Sendable {
    private let sockets = Mutex<[Int32]>([])

    /// An idle socket the server has not closed (one it closed, or that has bytes nobody asked for, is closed here:
    /// the usual end of an idle keep-alive connection is found before a request is sent on it).
    func take() -> Int32? {
        while let socket = sockets.withLock({ $0.popLast() }) {
            var byte: UInt8 = 0
            if recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                return socket
            }
            close(socket)
        }
        return nil
    }
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
