import MicroHTTP
import Testing

@Suite("Request body limits")
struct BodyLimitTests {
    static let configuration = testConfiguration { $0.maxBodyBytes = 1024 }

    @Test("A declared Content-Length over the cap gets 413 before any body is sent")
    func declaredTooLarge() throws {
        try withServer(Self.configuration, handle: echo) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 413)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(response.json["status"] as? Int == 413)
            #expect(connection.isClosedByPeer())
        }
    }

    @Test("A client that sends its whole oversized body receives the 413, not a connection reset")
    func oversizedBodySentAnyway() throws {
        try withServer(Self.configuration, handle: echo) { server in
            let connection = try RawConnection(port: server.port)
            let body = [UInt8](repeating: UInt8(ascii: "x"), count: 512 * 1024)
            try connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n")
            try connection.send(body)
            let response = try connection.readResponse()
            #expect(response.status == 413)
            #expect(response.json["status"] as? Int == 413)
            #expect(response.headers["Connection"]?.lowercased() == "close")
        }
    }

    @Test("A body far over the drain allowance is refused at once and the connection closed")
    func farTooLarge() throws {
        let configuration = testConfiguration {
            $0.maxBodyBytes = 1024
            $0.maxDrainedBodyBytes = 4096
        }
        try withServer(configuration, handle: echo) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
            #expect(try connection.readResponse().status == 413)
            #expect(connection.isClosedByPeer())
        }
    }

    @Test("A body of exactly the cap is accepted")
    func atTheCap() throws {
        try withServer(Self.configuration, handle: echo) { server in
            let body = String(repeating: "b", count: 1024)
            let response = try RawConnection(port: server.port).request("POST", "/", body: body)
            #expect(response.status == 200)
            #expect(response.json["body"] as? String == body)
        }
    }

    @Test("A chunked body is reassembled")
    func chunkedWithinCap() throws {
        try withServer(Self.configuration, handle: echo) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send(
                "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
            )
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.json["body"] as? String == "hello world")
        }
    }

    @Test("A chunked body is counted and cut at the cap with 413")
    func chunkedTooLarge() throws {
        let calls = Recorder<Int>()
        try withServer(
            Self.configuration,
            handle: { request in
                calls.append(request.body.count)
                return HTTPResponse(status: 200)
            }
        ) { server in
            let connection = try RawConnection(port: server.port)
            let chunk = String(repeating: "c", count: 300)
            var request = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            for _ in 0..<5 { request += "12c\r\n\(chunk)\r\n" }
            try connection.send(request + "0\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 413)
            #expect(response.headers["Content-Type"] == "application/problem+json")
        }
        #expect(calls.values.isEmpty, "the handler never sees an oversized body")
    }
}
