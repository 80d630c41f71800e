import MicroHTTP
import Testing

#if canImport(Glibc)
    import Glibc
#endif

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

    @Test("Per-network share: many addresses of one /24 hold at most its share; another network is served")
    func perNetworkShare() throws {
        let configuration = testConfiguration {
            $0.maxConnectionsPerIP = 4
            $0.maxConnectionsPerNetwork = 6
        }
        try withServer(configuration, handle: echo) { server in
            // Slow connections from three addresses of 127.0.0.0/24, each under its own limit: the network's 6.
            var held: [RawConnection] = []
            for index in 0..<6 {
                let connection = try RawConnection(port: server.port, from: "127.0.0.\(1 + index % 3)")
                #expect(try connection.request("GET", "/").status == 200)
                try connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n")  // headers never finish
                held.append(connection)
            }
            // A seventh, from a fourth address of the network, is refused at once.
            let extra = try RawConnection(port: server.port, from: "127.0.0.9")
            try? extra.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(extra.isClosedByPeer())
            // Another network is served meanwhile.
            let other = try RawConnection(port: server.port, from: "127.0.1.1")
            #expect(try other.request("GET", "/").status == 200)
            // Once one of the network's connections closes, it may open another.
            held.removeFirst()
            #expect(
                eventually {
                    (try? RawConnection(port: server.port, from: "127.0.0.9").request("GET", "/").status) == 200
                })
        }
    }

    @Test("Total connection limit: at the cap with only event streams (never evicted), a new connection waits")
    func totalLimit() throws {
        let box = StreamBox()
        let configuration = testConfiguration {
            $0.threads = 1
            $0.maxConnections = 3
            $0.heartbeatInterval = .seconds(60)
        }
        try withServer(configuration, handle: box.handler) { server in
            var streams = try (0..<3).map { _ in try EventReader(port: server.port) }
            #expect(eventually { box.streams.values.count == 3 })
            // libmicrohttpd stops accepting at the cap, and no stream is evicted: the extra connection waits.
            let extra = try RawConnection(port: server.port, timeout: 1)
            try extra.send("GET /extra HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(throws: RawError.self) { _ = try extra.readResponse() }
            #expect(box.closed.values.isEmpty)
            for stream in box.streams.values { #expect(stream.send(id: nil, event: nil, data: "still here")) }
            for reader in streams { #expect(try reader.next() == "data: still here") }
            streams.removeFirst()  // closes one stream; the extra connection is accepted and served
            var response: RawResponse?
            _ = eventually {
                response = try? extra.readResponse()
                return response != nil
            }
            #expect(response?.status == 200)
            #expect(box.closed.values.count == 1)
        }
    }

    @Test("Idle connections filling the cap make room: a new client is answered at once, the oldest idle one closed")
    func idleConnectionsAreEvicted() throws {
        let configuration = testConfiguration {
            $0.maxConnections = 20
            $0.maxConnectionsPerIP = 20
            $0.idleTimeout = .seconds(30)
            $0.requestTimeout = .seconds(60)
            $0.firstRequestTimeout = .seconds(60)  // only eviction can free a slot within the test
        }
        try withServer(configuration, handle: echo) { server in
            // Twenty connections from four addresses that never send a request (the old server waited 30 s).
            let idle = try (0..<20).map { index in
                try RawConnection(port: server.port, from: "127.0.0.\(1 + index % 4)", timeout: 2)
            }
            #expect(eventually { server.openConnections >= 18 })
            let fresh = try RawConnection(port: server.port, from: "127.0.0.9", timeout: 2)
            let response = try fresh.request("GET", "/fresh")
            #expect(response.status == 200)
            #expect(response.json["path"] as? String == "/fresh")
            #expect(idle[0].isClosedByPeer(), "the connection idle the longest made room")
            // A keep-alive connection between requests is idle too; one with a request in progress is not.
            let busy = try RawConnection(port: server.port, from: "127.0.0.9", timeout: 2)
            try busy.send("POST /busy HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nab")
            for index in 0..<20 {
                let another = try RawConnection(port: server.port, from: "127.0.0.10", timeout: 2)
                #expect(try another.request("GET", "/another\(index)").status == 200, "connection \(index)")
            }
            try busy.send("cd")
            #expect(try busy.readResponse().json["body"] as? String == "abcd", "a busy connection is never evicted")
        }
    }

    @Test("A connection that sends no request is closed after the first-request timeout")
    func firstRequestTimeout() throws {
        let configuration = testConfiguration {
            $0.firstRequestTimeout = .seconds(1)
            $0.idleTimeout = .seconds(30)
            $0.requestTimeout = .seconds(30)
        }
        try withServer(configuration, handle: echo) { server in
            let silent = try RawConnection(port: server.port, timeout: 10)
            let opened = ContinuousClock.now
            #expect(silent.isClosedByPeer())
            #expect(ContinuousClock.now - opened < .seconds(5), "closed by the 1 s deadline, not the 30 s ones")
            // A header sent in time is served, and later requests on the connection have the request timeout.
            let prompt = try RawConnection(port: server.port, timeout: 5)
            usleep(500_000)
            #expect(try prompt.request("GET", "/first").status == 200)
            usleep(1_500_000)
            #expect(try prompt.request("GET", "/second").status == 200)
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

    @Test("Defaults: 10,000 connections, 256 per IP, 10 s idle timeout, 30 s per request, 5 s for the first header")
    func defaults() {
        let configuration = HTTPServerConfiguration()
        #expect(configuration.maxConnections == 10_000)
        #expect(configuration.maxConnectionsPerIP == 256)
        #expect(configuration.requestTimeout == .seconds(30))
        #expect(configuration.firstRequestTimeout == .seconds(5))
        #expect(configuration.idleTimeout == .seconds(10))
        #expect(configuration.maxBodyBytes == 1 << 20)
        #expect(configuration.heartbeatInterval == .seconds(15))
        #expect(configuration.maxStreams >= 1000)
        #expect(configuration.threads >= 1)
    }
}
