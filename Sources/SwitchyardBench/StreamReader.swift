import HTTPTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// One `text/event-stream` response read without blocking: decodes the chunked coding and keeps the last event id
/// and the count of event bytes (the stream's text, without the chunked framing). The socket is closed with it.
final class StreamReader {
    private let connection: RawConnection
    var socket: Int32 { connection.fd }
    private(set) var lastID = -1
    private(set) var eventBytes = 0
    private var headDone = false
    private var pending: [UInt8] = []
    /// Bytes of the current chunk still to come; nil while a chunk-size line is read.
    private var chunkLeft: Int?
    /// The text of the current event line, up to its end.
    private var line: [UInt8] = []

    init(port: UInt16, source: String, path: String) throws {
        connection = try RawConnection(port: port, from: source)
        try connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        _ = fcntl(connection.fd, F_SETFL, fcntl(connection.fd, F_GETFL) | O_NONBLOCK)
    }

    /// Reads what has arrived.
    func read() throws {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
            guard count > 0 else { throw BenchError("a stream ended") }
            try consume(buffer[..<count])
        }
    }

    private func consume(_ bytes: ArraySlice<UInt8>) throws {
        pending += bytes
        if !headDone {
            guard let end = pending.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
            let status = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
            guard status.hasPrefix("HTTP/1.1 200") else { throw BenchError("a stream answered \(status.prefix(40))") }
            pending.removeFirst(end.upperBound)
            headDone = true
        }
        var index = 0
        while index < pending.count {
            if let left = chunkLeft, left > 0 {
                let take = min(left, pending.count - index)
                scan(pending[index..<(index + take)])
                eventBytes += take
                index += take
                chunkLeft = left - take
            } else if chunkLeft == 0 {
                guard pending.count - index >= 2 else { break }
                index += 2  // the CRLF after a chunk
                chunkLeft = nil
            } else {
                guard let end = pending[index...].firstRange(of: Array("\r\n".utf8)) else { break }
                let size = String(decoding: pending[index..<end.lowerBound], as: UTF8.self)
                chunkLeft = Int(size.split(separator: ";").first ?? "", radix: 16) ?? 0
                index = end.upperBound
            }
        }
        pending.removeFirst(index)
    }

    /// Finds `id:` lines in event text.
    private func scan(_ text: ArraySlice<UInt8>) {
        for byte in text {
            if byte == UInt8(ascii: "\n") {
                if line.starts(with: Array("id: ".utf8)),
                    let id = Int(String(decoding: line.dropFirst(4), as: UTF8.self))
                {
                    lastID = id
                }
                line.removeAll(keepingCapacity: true)
            } else if line.count < 32 {
                line.append(byte)
            }
        }
    }
}
