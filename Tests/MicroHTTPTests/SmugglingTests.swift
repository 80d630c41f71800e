import MicroHTTP
import Testing

@Suite("Request smuggling shapes")
struct SmugglingTests {
    static let shapes: [(String, String)] = [
        (
            "duplicate Content-Length",
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc"
        ),
        (
            "Content-Length with Transfer-Encoding",
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
        ),
        ("Transfer-Encoding gzip", "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n"),
        // libmicrohttpd reads `chunked ` as "not chunked": a body that ends only with the connection.
        (
            "Transfer-Encoding with a trailing space",
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked \r\n\r\n"
        ),
        // A space before the colon: libmicrohttpd would ignore the length and read the body as the next request.
        (
            "space before the colon",
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length : 32\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"
        ),
        ("header name with a space", "GET / HTTP/1.1\r\nHost: x\r\nX Forwarded: 1\r\n\r\n"),
        (
            "Transfer-Encoding twice",
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
        ),
    ]

    @Test("Each shape gets 400 problem+json and the connection is closed", arguments: 0..<shapes.count)
    func refused(index: Int) throws {
        let calls = Recorder<String>()
        try withServer(
            handle: { request in
                calls.append(request.path)
                return HTTPResponse(status: 200)
            }
        ) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send(Self.shapes[index].1)
            let response = try connection.readResponse()
            #expect(response.status == 400, "\(Self.shapes[index].0)")
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(response.json["status"] as? Int == 400)
            #expect(response.json["type"] as? String == "about:blank")
            #expect(response.headers["Connection"]?.lowercased() == "close")
            #expect(connection.isClosedByPeer())
        }
        #expect(calls.values.isEmpty)
    }

    @Test("A Content-Length that is not a number is refused with 400 by libmicrohttpd itself")
    func malformedLength() throws {
        let calls = Recorder<String>()
        try withServer(
            handle: { request in
                calls.append(request.path)
                return HTTPResponse(status: 200)
            }
        ) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3, 3\r\n\r\nabc")
            let text = String(decoding: connection.readToEnd(), as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 400 "))
            #expect(!text.contains("200 OK"))
        }
        #expect(calls.values.isEmpty)
    }
}
