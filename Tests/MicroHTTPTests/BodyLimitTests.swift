import Dispatch
import MicroHTTP
import Testing

#if canImport(Glibc)
    import Glibc
#endif

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

    @Test(
        "A declared body over the cap with Expect: 100-continue gets 413 at once, never 100 Continue",
        arguments: [1025, 4 << 20 + 512 << 10, 100_000_000])
    func expectContinueTooLarge(length: Int) throws {
        try withServer(Self.configuration, handle: echo) { server in
            // A client that waits for 100 Continue before its body: the old server sent 100 (or nothing).
            let connection = try RawConnection(port: server.port, timeout: 2)
            try connection.send(
                "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\nExpect: 100-continue\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 413)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(response.json["status"] as? Int == 413)
            #expect(connection.isClosedByPeer())
        }
    }

    @Test("A body within the cap with Expect: 100-continue still gets 100 Continue, then its answer")
    func expectContinueWithinCap() throws {
        try withServer(Self.configuration, handle: echo) { server in
            let connection = try RawConnection(port: server.port, timeout: 2)
            try connection.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
            let (status, _) = try connection.readHead()
            #expect(status == 100)
            try connection.send("hello")
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.json["body"] as? String == "hello")
        }
    }

    @Test(
        "A client that sends an oversized body at once reads a prompt 413 while it sends (4.5 MiB, cap 1 MiB)",
        arguments: [2 << 20, 4 << 20 + 512 << 10, 12 << 20])
    func oversizedBodyWhileSending(length: Int) throws {
        try withServer(testConfiguration(), handle: echo) { server in
            let connection = try RawConnection(port: server.port, timeout: 2)
            let head = Array("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\n".utf8)
            let sent = Self.sendInBackground(
                head + [UInt8](repeating: UInt8(ascii: "x"), count: length), on: connection)
            defer { withExtendedLifetime(connection) { sent.wait() } }  // the sender is done before the socket closes
            let response = try connection.readResponse()
            #expect(response.status == 413)
            #expect(response.json["status"] as? Int == 413)
        }
    }

    @Test("A chunked body that grows past the cap gets a prompt 413, before the client ends it")
    func chunkedTooLargeIsAnsweredAtOnce() throws {
        try withServer(Self.configuration, handle: echo) { server in
            // The body never ends: the old server waited for its end (or dropped the connection after 4 MiB).
            let connection = try RawConnection(port: server.port, timeout: 2)
            let chunk = String(repeating: "c", count: 600)
            try connection.send("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            try connection.send("258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 413)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(response.headers["Connection"]?.lowercased() == "close")
            #expect(response.json["status"] as? Int == 413)
            #expect(connection.isClosedByPeer())
        }
    }

    @Test("A chunked body sent on far past the cap and the drain allowance gets its 413, then the socket is cut")
    func endlessChunkedBody() throws {
        let configuration = testConfiguration {
            $0.maxBodyBytes = 1024
            $0.maxDrainedBodyBytes = 64 << 10
        }
        try withServer(configuration, handle: echo) { server in
            let connection = try RawConnection(port: server.port, timeout: 2)
            var request = Array("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
            let chunk =
                Array("4000\r\n".utf8) + [UInt8](repeating: UInt8(ascii: "c"), count: 0x4000) + Array("\r\n".utf8)
            for _ in 0..<4096 { request += chunk }  // 64 MiB, never ended
            let sent = Self.sendInBackground(request, on: connection)
            defer { withExtendedLifetime(connection) { sent.wait() } }
            #expect(try connection.readResponse().status == 413)
            sent.wait()
            // The server stops reading past the allowance (64 KiB, and socket buffers): the rest is refused.
            #expect(sent.bytes < request.count)
        }
    }

    /// Sends `bytes` on `connection`'s socket from another thread until done or an error (the server may close
    /// first; a send blocked longer than the connection's timeout fails too).
    static func sendInBackground(_ bytes: [UInt8], on connection: RawConnection) -> BackgroundSend {
        let sender = BackgroundSend()
        let socket = connection.fd
        onNewThread {
            var offset = 0
            while offset < bytes.count {
                let count = bytes[offset...].withUnsafeBytes {
                    send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                guard count > 0 else { break }
                offset += count
            }
            sender.finish(sent: offset)
        }
        return sender
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
