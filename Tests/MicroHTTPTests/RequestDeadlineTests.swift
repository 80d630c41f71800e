import Foundation
import MicroHTTP
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Request deadlines")
struct RequestDeadlineTests {
    /// Sends `text` one byte at a time, `interval` apart, until done or the server closes; returns how
    /// many bytes went out.
    private func trickle(_ text: String, on connection: RawConnection, every interval: useconds_t) -> Int {
        var sent = 0
        for byte in text.utf8 {
            guard (try? connection.send([byte])) != nil else { break }
            sent += 1
            usleep(interval)
        }
        return sent
    }

    @Test("A client trickling its header a byte at a time is closed at the request deadline")
    func tricklingHeader() throws {
        // Never idle for the 5 s inactivity timeout, yet never done: 1 s is the whole allowance.
        let configuration = testConfiguration { $0.requestTimeout = .seconds(1) }
        let calls = Recorder<String>()
        try withServer(
            configuration,
            handle: { request in
                calls.append(request.path)
                return HTTPResponse(status: 200)
            }
        ) { server in
            let connection = try RawConnection(port: server.port, timeout: 10)
            let request =
                "GET /slow HTTP/1.1\r\nHost: x\r\nX-Padding: " + String(repeating: "p", count: 200) + "\r\n\r\n"
            let sent = trickle(request, on: connection, every: 100_000)  // 20+ s if never stopped
            #expect(sent < request.utf8.count, "the server closed the connection before the request was complete")
            #expect(connection.isClosedByPeer())
        }
        #expect(calls.values.isEmpty)
    }

    @Test("A client trickling its body is closed at the request deadline")
    func tricklingBody() throws {
        let configuration = testConfiguration { $0.requestTimeout = .seconds(1) }
        try withServer(configuration, handle: echo) { server in
            let connection = try RawConnection(port: server.port, timeout: 10)
            try connection.send("POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 200\r\n\r\n")
            let sent = trickle(String(repeating: "b", count: 200), on: connection, every: 100_000)
            #expect(sent < 200)
            #expect(connection.isClosedByPeer())
        }
    }

    @Test("The deadline counts per request: a keep-alive connection serves many quick requests")
    func keepAliveIsNotCut() throws {
        let configuration = testConfiguration { $0.requestTimeout = .milliseconds(1500) }
        try withServer(configuration, handle: echo) { server in
            let connection = try RawConnection(port: server.port)
            for index in 0..<12 {
                #expect(try connection.request("GET", "/r\(index)").status == 200)
                usleep(250_000)  // 3 s in all, twice the deadline
            }
        }
    }

    @Test("A slow handler is not cut by the deadline: it times the request, not the answer")
    func slowHandlerIsNotCut() throws {
        let configuration = testConfiguration { $0.requestTimeout = .milliseconds(500) }
        try withServer(
            configuration,
            handle: { _ in
                usleep(1_500_000)  // three times the deadline
                return .json(200, Array("{}".utf8))
            }
        ) { server in
            let response = try RawConnection(port: server.port).request("GET", "/slow")
            #expect(response.status == 200)
        }
    }

    @Test("An event stream is a response, not a request: the deadline does not end it")
    func streamsOutliveTheDeadline() throws {
        let box = StreamBox()
        let configuration = testConfiguration {
            $0.requestTimeout = .milliseconds(500)
            $0.heartbeatInterval = .milliseconds(200)
        }
        try withServer(configuration, handle: box.handler) { server in
            let reader = try EventReader(port: server.port)
            #expect(eventually { box.streams.values.count == 1 })
            usleep(1_500_000)
            let stream = try #require(box.streams.values.first)
            #expect(stream.send(id: nil, event: nil, data: "still here"))
            #expect(try reader.next() == "data: still here")
        }
    }
}
