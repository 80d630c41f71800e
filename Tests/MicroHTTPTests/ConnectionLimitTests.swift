import MicroHTTP
import Testing

@Suite("Connection limits and timeouts")
struct ConnectionLimitTests {
    /// Opens `count` connections that each finished one request and then started a slow one.
    static func holdSlowConnections(_ count: Int, port: UInt16) throws -> [RawConnection] {
        try (0..<count).map { _ in
            let connection = try RawConnection(port: port)
            #expect(try connection.request("GET", "/").status == 200)
            try connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n")  // headers never finish
            return connection
        }
    }

    @Test("Per-IP limit: one client's slow connections do not starve another client")
    func perIPLimit() throws {
        let configuration = testConfiguration { $0.maxConnectionsPerIP = 4 }
        try withServer(configuration, handle: echo) { server in
            let held = try Self.holdSlowConnections(4, port: server.port)
            // A fifth connection from the same address is dropped without an answer.
            let extra = try RawConnection(port: server.port)
            try? extra.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(extra.isClosedByPeer())
            // Another client (another loopback address) is served meanwhile.
            let other = try RawConnection(port: server.port, from: "127.0.0.2")
            let response = try other.request("GET", "/who")
            #expect(response.status == 200)
            #expect(response.json["peer"] as? String == "127.0.0.2")
            #expect(held.count == 4)
        }
    }

    @Test("Total connection limit: a connection over it waits unserved until one closes")
    func totalLimit() throws {
        let configuration = testConfiguration {
            $0.threads = 1
            $0.maxConnections = 3
        }
        try withServer(configuration, handle: echo) { server in
            var held = try Self.holdSlowConnections(3, port: server.port)
            // libmicrohttpd stops accepting at the limit: the extra connection stays in the backlog.
            let extra = try RawConnection(port: server.port, timeout: 1)
            try extra.send("GET /extra HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(throws: RawError.self) { _ = try extra.readResponse() }
            held.removeFirst()  // closes one connection; the extra one is accepted and served
            var response: RawResponse?
            _ = eventually {
                response = try? extra.readResponse()
                return response != nil
            }
            #expect(response?.status == 200)
            #expect(response?.json["path"] as? String == "/extra")
        }
    }

    @Test("An idle keep-alive connection is closed after the idle timeout")
    func idleTimeout() throws {
        let configuration = testConfiguration { $0.idleTimeout = .seconds(1) }
        try withServer(configuration, handle: echo) { server in
            let connection = try RawConnection(port: server.port, timeout: 10)
            #expect(try connection.request("GET", "/").status == 200)
            #expect(connection.isClosedByPeer())
        }
    }

    @Test("A client that never finishes its headers is closed after the idle timeout")
    func slowHeaders() throws {
        let configuration = testConfiguration { $0.idleTimeout = .seconds(1) }
        try withServer(configuration, handle: echo) { server in
            let connection = try RawConnection(port: server.port, timeout: 10)
            try connection.send("GET / HTTP/1.1\r\nHost: x\r\n")
            #expect(connection.isClosedByPeer())
        }
    }

    @Test("Defaults: 10,000 connections, 256 per IP, 10 s idle timeout, 30 s per request")
    func defaults() {
        let configuration = HTTPServerConfiguration()
        #expect(configuration.maxConnections == 10_000)
        #expect(configuration.maxConnectionsPerIP == 256)
        #expect(configuration.requestTimeout == .seconds(30))
        #expect(configuration.idleTimeout == .seconds(10))
        #expect(configuration.maxBodyBytes == 1 << 20)
        #expect(configuration.heartbeatInterval == .seconds(15))
        #expect(configuration.maxStreams >= 1000)
        #expect(configuration.threads >= 1)
    }
}
