/// An HTTP/1.1 answer as `switchyard test` reads it off a connection (``PlainHTTPClient``): its status, its body
/// (its end found by `Content-Length`, chunked encoding, or the connection's end) and whether the connection stays
/// open for the next request. Lengths, heads and bodies are bounded; anything malformed is a failure, never a trap.
struct HTTPAnswer: Sendable, Equatable {
    let status: Int
    let body: [UInt8]
    /// `Retry-After` in seconds, when given as a number.
    let retryAfter: Int?
    let keepOpen: Bool

    /// The longest head read.
    static let maxHead = 64 << 10
    /// The longest body read.
    static let maxBody = 64 << 20

    /// The answer `bytes` (all received on the connection since the request) hold; nil while more must be read.
    /// `closed`: the connection ended after them (then an answer cut short is a failure).
    static func read(_ bytes: [UInt8], closed: Bool) throws(PlainHTTPClient.Failure) -> HTTPAnswer? {
        guard let end = headEnd(bytes) else {
            if closed { throw .init(description: "the server's answer has no complete head") }
            if bytes.count > maxHead { throw .init(description: "an answer's head of more than \(maxHead) bytes") }
            return nil
        }
        let head = try Head(bytes[..<end])
        let start = end + 4
        let rest = bytes[start...]
        var body: [UInt8]
        var keepOpen = head.keepOpen
        if head.isBodiless {
            body = []
        } else if let length = head.length {
            guard rest.count >= length else {
                if closed { throw .init(description: "the connection closed in the middle of an answer") }
                return nil
            }
            body = Array(rest.prefix(length))
        } else if head.isChunked {
            guard let whole = try dechunked(rest) else {
                if closed { throw .init(description: "the connection closed in the middle of an answer") }
                return nil
            }
            body = whole
        } else {
            // The body ends with the connection.
            guard closed else { return nil }
            body = Array(rest)
            keepOpen = false
        }
        guard body.count <= maxBody else { throw .init(description: "an answer of more than \(maxBody) bytes") }
        return HTTPAnswer(status: head.status, body: body, retryAfter: head.retryAfter, keepOpen: keepOpen)
    }

    /// Where the head's blank line starts, within ``maxHead``.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        let last = min(bytes.count, maxHead + 4) - 4
        guard last >= 0 else { return nil }
        return (0...last).first { index in
            bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10
        }
    }

    /// A chunked body's data, once `bytes` hold its last chunk and trailers; nil before. Chunk extensions and
    /// trailers are read past.
    static func dechunked(_ bytes: ArraySlice<UInt8>) throws(PlainHTTPClient.Failure) -> [UInt8]? {
        var body: [UInt8] = []
        var index = bytes.startIndex
        func line(from start: Int) -> (text: ArraySlice<UInt8>, next: Int)? {
            var at = start
            while at + 1 < bytes.endIndex {
                if bytes[at] == 13, bytes[at + 1] == 10 { return (bytes[start..<at], at + 2) }
                at += 1
            }
            return nil
        }
        while true {
            guard let (sizeLine, afterSize) = line(from: index) else { return nil }
            let digits = sizeLine.prefix { $0 != UInt8(ascii: ";") }
            guard digits.count <= 8, let size = Int(String(decoding: digits, as: UTF8.self).trimmingSpaces, radix: 16)
            else { throw .init(description: "a chunk of the server's answer has no size") }
            if size == 0 {
                // Trailers, each a line, to a blank one.
                var at = afterSize
                while true {
                    guard let (trailer, next) = line(from: at) else { return nil }
                    if trailer.isEmpty { return body }
                    at = next
                }
            }
            guard body.count + size <= maxBody else {
                throw .init(description: "an answer of more than \(maxBody) bytes")
            }
            guard afterSize + size + 2 <= bytes.endIndex else { return nil }
            guard bytes[afterSize + size] == 13, bytes[afterSize + size + 1] == 10 else {
                throw .init(description: "a chunk of the server's answer does not end where its size says")
            }
            body += bytes[afterSize..<(afterSize + size)]
            index = afterSize + size + 2
        }
    }

    /// An answer's head: its status and what says where its body ends.
    private struct Head {
        let status: Int
        let length: Int?
        let isChunked: Bool
        let isBodiless: Bool
        let keepOpen: Bool
        let retryAfter: Int?

        init(_ bytes: ArraySlice<UInt8>) throws(PlainHTTPClient.Failure) {
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n")
            let statusLine = lines.first?.split(separator: " ") ?? []
            guard statusLine.count >= 2, let status = Int(statusLine[1]), (100...599).contains(status) else {
                throw .init(description: "the server's answer has no status")
            }
            var fields: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[line[..<colon].lowercased()] = String(line[line.index(after: colon)...]).trimmingSpaces
            }
            self.status = status
            isChunked = fields["transfer-encoding"]?.lowercased() == "chunked"
            if !isChunked, let text = fields["content-length"] {
                guard let length = Int(text), (0...HTTPAnswer.maxBody).contains(length) else {
                    throw .init(description: "the server's answer has a Content-Length of '\(text)'")
                }
                self.length = length
            } else {
                length = nil
            }
            // A 1xx, 204 or 304 has no body.
            isBodiless = (100..<200).contains(status) || status == 204 || status == 304
            keepOpen = fields["connection"]?.lowercased() != "close" && (isBodiless || length != nil || isChunked)
            retryAfter = fields["retry-after"].flatMap { Int($0) }.map { min(max($0, 0), 3600) }
        }
    }
}

extension String {
    /// Without spaces and tabs at either end.
    fileprivate var trimmingSpaces: String {
        let kept = utf8.drop { $0 == 32 || $0 == 9 }.reversed().drop { $0 == 32 || $0 == 9 }.reversed()
        return String(decoding: Array(kept), as: UTF8.self)
    }
}
