import Testing

@testable import SwitchyardCommandLine

/// How `switchyard test` reads an answer off a kept-open connection: where each kind of body ends, and malformed
/// answers as failures, never a trap.
@Suite("Reading HTTP answers")
struct HTTPAnswerTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func aBodyEndsWhereItsLengthSays() throws {
        let whole = Self.bytes("HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\n{\"a\":1}")
        #expect(try HTTPAnswer.read(whole, closed: false)?.body == Self.bytes("{\"a\":1}"))
        #expect(try HTTPAnswer.read(whole, closed: false)?.keepOpen == true)
        #expect(try HTTPAnswer.read(Array(whole.dropLast(2)), closed: false) == nil, "more to read")
        #expect(throws: PlainHTTPClient.Failure.self) { try HTTPAnswer.read(Array(whole.dropLast(2)), closed: true) }
        let closing = Self.bytes(
            "HTTP/1.1 429 Too Many\r\nConnection: close\r\nRetry-After: 2\r\nContent-Length: 0\r\n\r\n")
        let answer = try #require(try HTTPAnswer.read(closing, closed: false))
        #expect(answer.status == 429 && answer.retryAfter == 2 && !answer.keepOpen && answer.body.isEmpty)
    }

    @Test func aChunkedBodyEndsAtItsLastChunkAndTrailers() throws {
        let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        // Data that ends in CRLF and a zero is not the end; an extension and a trailer are read past.
        let chunks = "5;x=1\r\nab\r\n0\r\n3\r\n0\r\n\r\n"  // its bytes end as a last chunk would
        let whole = Self.bytes(head + chunks + "0\r\nExpires: never\r\n\r\n")
        #expect(try HTTPAnswer.read(whole, closed: false)?.body == Self.bytes("ab\r\n00\r\n"))
        #expect(try HTTPAnswer.read(Self.bytes(head + chunks), closed: false) == nil, "the last chunk is still to come")
        #expect(throws: PlainHTTPClient.Failure.self) { try HTTPAnswer.read(Self.bytes(head + chunks), closed: true) }
        #expect(throws: PlainHTTPClient.Failure.self) {
            try HTTPAnswer.read(Self.bytes(head + "zz\r\nab\r\n0\r\n\r\n"), closed: false)
        }
        #expect(throws: PlainHTTPClient.Failure.self, "a chunk longer than its size") {
            try HTTPAnswer.read(Self.bytes(head + "1\r\nab\r\n0\r\n\r\n"), closed: false)
        }
    }

    @Test func badLengthsAndHeadsAreFailures() {
        for length in ["-1", "9223372036854775807", "x", "99999999999"] {
            #expect(throws: PlainHTTPClient.Failure.self, "Content-Length: \(length)") {
                try HTTPAnswer.read(Self.bytes("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\n\r\n{}"), closed: false)
            }
        }
        #expect(throws: PlainHTTPClient.Failure.self) {
            try HTTPAnswer.read(Self.bytes("HTTP/1.1 OK\r\n\r\n"), closed: false)
        }
        #expect(throws: PlainHTTPClient.Failure.self) { try HTTPAnswer.read(Self.bytes("HTTP/1.1 200"), closed: true) }
        let endless = [UInt8](repeating: 65, count: HTTPAnswer.maxHead + 10)
        #expect(throws: PlainHTTPClient.Failure.self) { try HTTPAnswer.read(endless, closed: false) }
    }

    @Test func aBodyWithoutALengthEndsWithTheConnection() throws {
        let bytes = Self.bytes("HTTP/1.1 200 OK\r\n\r\n{}")
        #expect(try HTTPAnswer.read(bytes, closed: false) == nil)
        let answer = try #require(try HTTPAnswer.read(bytes, closed: true))
        #expect(answer.body == Self.bytes("{}") && !answer.keepOpen)
        let empty = try #require(try HTTPAnswer.read(Self.bytes("HTTP/1.1 204 No Content\r\n\r\n"), closed: false))
        #expect(empty.body.isEmpty && empty.keepOpen)
    }
}
