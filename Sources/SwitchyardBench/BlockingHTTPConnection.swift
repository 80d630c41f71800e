import Foundation
import Switchyard

#if canImport(Glibc)
    import Glibc
#endif

/// One keep-alive HTTP/1.1 connection to 127.0.0.1 for the benchmark's own requests (answers with Content-Length).
final class BlockingHTTPConnection {
    private let socket: Int32
    private var buffered: [UInt8] = []

    init(port: UInt16, source: String? = nil) throws {
        socket = try BenchSocket.connect(port: port, source: source)
    }

    deinit {
        Glibc.close(socket)
    }

    /// Sends a request and reads its answer: status and body.
    func request(_ method: String, _ path: String, body: String? = nil) throws -> (Int, [UInt8]) {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        try BenchSocket.send(socket, Array((head + "\r\n" + (body ?? "")).utf8))
        let end = try readUntil(Array("\r\n\r\n".utf8))
        let headText = String(decoding: buffered[..<end], as: UTF8.self)
        buffered.removeFirst(end + 4)
        let status = Int(headText.split(separator: " ").dropFirst().first ?? "") ?? 0
        let length =
            headText.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        while buffered.count < length { try fill() }
        defer { buffered.removeFirst(length) }
        return (status, Array(buffered[..<length]))
    }

    /// A request whose answer must be 2xx JSON.
    func json(_ method: String, _ path: String, body: String? = nil) throws -> JSONValue {
        let (status, answer) = try request(method, path, body: body)
        guard (200..<300).contains(status) else { throw BenchError("\(method) \(path) answered \(status)") }
        return try JSONValue(parsing: answer)
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        while true {
            if let range = buffered.firstRange(of: marker) { return range.lowerBound }
            try fill()
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(socket, &chunk, chunk.count, 0)
        guard count > 0 else { throw BenchError("the server closed the connection") }
        buffered += chunk[..<count]
    }
}
