import Dispatch
import MicroHTTP
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Reads Server-Sent Events from a raw connection.
final class EventReader {
    let connection: RawConnection
    let status: Int
    let headers: HTTPHeaders
    private var text = ""
    private(set) var ended = false

    init(port: UInt16, path: String = "/events", from source: String? = nil) throws {
        connection = try RawConnection(port: port, from: source)
        try connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
        (status, headers) = try connection.readHead()
    }

    /// The next event block (comments included if `comments`); nil once the stream ended.
    func next(comments: Bool = false) throws -> String? {
        while true {
            if let range = text.range(of: "\n\n") {
                let block = String(text[..<range.lowerBound])
                text.removeSubrange(..<range.upperBound)
                if !comments && block.hasPrefix(":") { continue }
                return block
            }
            guard !ended, let chunk = try connection.readChunk() else { return nil }
            if chunk.isEmpty {
                ended = true
                return nil
            }
            text += String(decoding: chunk, as: UTF8.self)
        }
    }
}

/// Collects the streams a handler opened.
final class StreamBox: Sendable {
    let streams = Recorder<EventStream>()
    let closed = Recorder<Int>()

    func handler(_ request: HTTPRequest) throws -> HTTPResponse {
        guard request.path == "/events" else { return .json(200, Array("{}".utf8)) }
        return .eventStream { stream in
            let index = self.streams.values.count
            stream.onClose { self.closed.append(index) }
            self.streams.append(stream)
        }
    }
}

@Suite("Server-Sent Events")
struct EventStreamTests {
    @Test("Events arrive in order with SSE headers, then close ends the response cleanly")
    func eventsInOrder() throws {
        let box = StreamBox()
        try withServer(handle: box.handler) { server in
            let reader = try EventReader(port: server.port)
            #expect(reader.status == 200)
            #expect(reader.headers["Content-Type"] == "text/event-stream")
            #expect(reader.headers["Cache-Control"] == "no-store")
            #expect(reader.headers["X-Accel-Buffering"] == "no")
            #expect(eventually { box.streams.values.count == 1 })
            let stream = try #require(box.streams.values.first)
            onNewThread {
                for index in 0..<50 {
                    stream.send(id: "\(index)", event: "tick", data: "n=\(index)\nsecond line")
                }
            }
            for index in 0..<50 {
                let block = try #require(try reader.next())
                #expect(block == "id: \(index)\nevent: tick\ndata: n=\(index)\ndata: second line")
            }
            stream.close()
            #expect(stream.isClosed)
            #expect(stream.send(id: nil, event: nil, data: "late") == false)
            #expect(try reader.next() == nil)
            #expect(reader.ended, "the chunked response ends with its terminating chunk")
            // The connection is kept alive after the stream ended.
            #expect(try reader.connection.request("GET", "/after").status == 200)
            #expect(eventually { box.closed.values == [0] })
        }
    }

    @Test("Idle streams get `: ping` heartbeats")
    func heartbeat() throws {
        let box = StreamBox()
        try withServer(handle: box.handler) { server in
            let reader = try EventReader(port: server.port)
            let block = try #require(try reader.next(comments: true))
            #expect(block == ": ping")
        }
    }

    @Test("A client that disconnects closes its stream: onClose fires and send returns false")
    func clientDisconnect() throws {
        let box = StreamBox()
        try withServer(handle: box.handler) { server in
            var reader: EventReader? = try EventReader(port: server.port)
            #expect(eventually { box.streams.values.count == 1 })
            let stream = try #require(box.streams.values.first)
            #expect(stream.send(id: nil, event: nil, data: "hello"))
            #expect(try reader?.next() == "data: hello")
            reader = nil  // closes the socket
            #expect(eventually { box.closed.values == [0] })
            #expect(stream.isClosed)
            #expect(stream.send(id: nil, event: nil, data: "nobody") == false)
        }
    }

    @Test("A client that hangs up on an idle stream frees its connection slot at once, not at the heartbeat")
    func hangUpFreesSlot() throws {
        let box = StreamBox()
        let configuration = testConfiguration {
            $0.maxConnectionsPerIP = 4
            $0.heartbeatInterval = .seconds(60)  // no write would reveal the hang-up
        }
        try withServer(configuration, handle: box.handler) { server in
            for cycle in 0..<200 {
                // Each new stream needs a slot that a hung-up one held: it must be freed without a write.
                let admitted = eventually {
                    guard let reader = try? EventReader(port: server.port) else { return false }
                    return reader.status == 200
                }
                #expect(admitted, "cycle \(cycle)")
                if !admitted { break }
            }
            #expect(eventually { box.closed.values.count == 200 })
        }
    }

    @Test("A hundred streams closed politely (FIN) free their connections and address slots within a second")
    func closedStreamsFreeTheirConnections() throws {
        let box = StreamBox()
        let configuration = testConfiguration {
            $0.maxConnectionsPerIP = 100
            $0.idleTimeout = .seconds(30)
            $0.heartbeatInterval = .seconds(60)  // no write would reveal the hang-up
        }
        try withServer(configuration, handle: box.handler) { server in
            for round in 1...2 {
                // The second round needs every slot of the address that the first round's streams held.
                var readers = try (0..<100).map { _ in try EventReader(port: server.port) }
                #expect(readers.allSatisfy { $0.status == 200 }, "round \(round)")
                #expect(eventually { box.streams.values.count == 100 * round })
                #expect(server.openConnections == 100)
                readers = []  // each client closes its socket: a FIN
                #expect(eventually(within: 1) { server.openConnections == 0 }, "round \(round)")
                _ = readers
            }
            #expect(eventually(within: 1) { box.closed.values.count == 200 })
        }
    }

    @Test(
        "A client that half-closes a busy stream (FIN, reads no more) frees its connection at once, not at the idle timeout"
    )
    func finOnABusyStream() throws {
        let box = StreamBox()
        let configuration = testConfiguration {
            $0.idleTimeout = .seconds(30)
            $0.heartbeatInterval = .seconds(60)
            $0.maxStreamBacklogBytes = 32 << 20
        }
        try withServer(configuration, handle: box.handler) { server in
            let client = try RawConnection(port: server.port, receiveBuffer: 4096)
            try client.send("GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
            #expect(try client.readHead().0 == 200)
            #expect(eventually { box.streams.values.count == 1 })
            let stream = try #require(box.streams.values.first)
            // More than the sockets' buffers hold: the server stays blocked writing to a client that reads nothing.
            let frame = EventFrame(id: nil, event: nil, data: String(repeating: "e", count: 8192))
            for _ in 0..<1024 { #expect(stream.send(frame)) }
            _ = shutdown(client.fd, Int32(SHUT_WR))
            #expect(eventually(within: 2) { box.closed.values.count == 1 }, "the stream ended")
            #expect(eventually(within: 2) { server.openConnections == 0 }, "its connection closed")
            #expect(stream.isClosed)
        }
    }

    @Test(
        "A client that hangs up on a parked stream frees its connection at once, beside older keep-alive connections"
    )
    func hangUpBesideKeepAliveConnections() throws {
        let box = StreamBox()
        let configuration = testConfiguration {
            $0.threads = 1  // the stream's connection shares its worker with the older ones
            $0.idleTimeout = .seconds(30)
            $0.heartbeatInterval = .seconds(60)
        }
        try withServer(configuration, handle: box.handler) { server in
            // A page's keep-alive connections, older than the stream's: libmicrohttpd's timeout scan, which visits
            // the oldest connection on each round, does not reach the stream's.
            let pages = try (0..<4).map { _ in try RawConnection(port: server.port) }
            for page in pages { #expect(try page.request("GET", "/state").status == 200) }
            for cycle in 0..<5 {
                let client = try RawConnection(port: server.port)
                try client.send("GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
                #expect(try client.readHead().0 == 200)
                #expect(eventually { box.streams.values.count == cycle + 1 })
                #expect(eventually { server.openConnections == pages.count + 1 })
                _ = shutdown(client.fd, Int32(SHUT_WR))
                #expect(
                    eventually(within: 2) { box.closed.values.count == cycle + 1 }, "cycle \(cycle): the stream ended")
                let freed = eventually(within: 2) { server.openConnections == pages.count }
                #expect(freed, "cycle \(cycle): its connection closed")
                if !freed { break }
            }
        }
    }

    @Test("A client that hangs up while events are being sent is ended promptly, not at the heartbeat")
    func hangUpWhileBusyEndsTheStream() throws {
        let box = StreamBox()
        let configuration = testConfiguration { $0.heartbeatInterval = .seconds(60) }
        try withServer(configuration, handle: box.handler) { server in
            for cycle in 0..<20 {
                var reader: EventReader? = try EventReader(port: server.port)
                #expect(eventually { box.streams.values.count == cycle + 1 })
                let stream = try #require(box.streams.values.last)
                // Events keep the stream busy around the hang-up (a hang-up seen while it is busy ends it at its
                // next park, or a write reveals it); then it goes idle.
                DispatchQueue.global().async {
                    for index in 0..<2_000 where !stream.send(id: nil, event: nil, data: "event \(index)") { break }
                }
                reader = nil
                _ = reader
                #expect(eventually { stream.isClosed }, "cycle \(cycle): the stream ended")
            }
            #expect(eventually { box.closed.values.count == 20 })
        }
    }

    @Test("Sixty-five tabs behind one address each hold a stream and a keep-alive connection (default limits)")
    func tabsBehindOneAddress() throws {
        let box = StreamBox()
        let configuration = testConfiguration {
            $0.maxConnectionsPerIP = HTTPServerConfiguration().maxConnectionsPerIP
            $0.heartbeatInterval = .seconds(60)
        }
        try withServer(configuration, handle: box.handler) { server in
            let streams = try (0..<65).map { _ in try EventReader(port: server.port) }
            #expect(streams.allSatisfy { $0.status == 200 })
            let pages = try (0..<65).map { _ in try RawConnection(port: server.port) }
            for page in pages { #expect(try page.request("GET", "/state").status == 200) }
            #expect(eventually { box.streams.values.count == 65 })
        }
    }

    @Test("Over the stream cap a stream request gets a 503 problem")
    func streamCap() throws {
        let box = StreamBox()
        try withServer(testConfiguration { $0.maxStreams = 2 }, handle: box.handler) { server in
            let first = try EventReader(port: server.port)
            let second = try EventReader(port: server.port)
            #expect(first.status == 200 && second.status == 200)
            let refused = try RawConnection(port: server.port).request("GET", "/events")
            #expect(refused.status == 503)
            #expect(refused.headers["Content-Type"] == "application/problem+json")
            // Once a stream ends, there is room again.
            #expect(eventually { box.streams.values.count == 2 })
            box.streams.values[0].close()
            #expect(try first.next() == nil)
            var status = 0
            _ = eventually {
                status = (try? EventReader(port: server.port).status) ?? 0
                return status == 200
            }
            #expect(status == 200)
        }
    }

    @Test("Sends from many threads all arrive, each thread's events in order")
    func sendsFromManyThreads() throws {
        let box = StreamBox()
        try withServer(handle: box.handler) { server in
            let reader = try EventReader(port: server.port)
            #expect(eventually { box.streams.values.count == 1 })
            let stream = try #require(box.streams.values.first)
            onNewThread {
                DispatchQueue.concurrentPerform(iterations: 4) { thread in
                    for index in 0..<100 { stream.send(id: nil, event: "t\(thread)", data: "\(index)") }
                }
            }
            var next = [Int](repeating: 0, count: 4)
            for _ in 0..<400 {
                let block = try #require(try reader.next())
                let lines = block.split(separator: "\n")
                let thread = try #require(Int(lines[0].dropFirst("event: t".count)))
                #expect(lines[1] == "data: \(next[thread])")
                next[thread] += 1
            }
            #expect(next == [100, 100, 100, 100])
        }
    }

    @Test("A thousand concurrent streams each receive a broadcast event")
    func thousandStreams() throws {
        let box = StreamBox()
        let configuration = testConfiguration {
            $0.maxConnectionsPerIP = 2000
            $0.heartbeatInterval = .seconds(30)
        }
        try withServer(configuration, handle: box.handler) { server in
            let readers = try (0..<1000).map { _ in try EventReader(port: server.port) }
            #expect(readers.allSatisfy { $0.status == 200 })
            #expect(eventually(within: 10) { box.streams.values.count == 1000 })
            for stream in box.streams.values { stream.send(id: "1", event: "news", data: "to everyone") }
            var received = 0
            for reader in readers where try reader.next() == "id: 1\nevent: news\ndata: to everyone" {
                received += 1
            }
            #expect(received == 1000)
        }
    }
}
