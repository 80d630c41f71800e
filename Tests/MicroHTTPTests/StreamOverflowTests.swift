import Dispatch
import Foundation
import MicroHTTP
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A handler whose streams' close callbacks take `lock`, the lock its senders hold while sending: the
/// shape of an application that keeps its subscribers under one lock.
final class LockedSubscribers: @unchecked Sendable {
    // @unchecked: `streams` is only touched while `lock` is held.
    let lock = NSLock()
    private var streams: [EventStream] = []
    let closed = Recorder<Int>()

    func handler(_ request: HTTPRequest) throws -> HTTPResponse {
        guard request.path == "/events" else { return .json(200, Array("{}".utf8)) }
        return .eventStream { stream in
            stream.onClose {
                self.lock.lock()
                self.streams.removeAll { $0 === stream }
                self.lock.unlock()
                self.closed.append(1)
            }
            self.lock.lock()
            self.streams.append(stream)
            // Sent while holding the lock, as a subscribe that sends the current state does.
            _ = stream.send(EventFrame(id: nil, event: "hello", data: String(repeating: "x", count: 48 * 1024)))
            self.lock.unlock()
        }
    }

    /// Sends `frame` to every stream while holding the lock; returns how many took it.
    func broadcast(_ frame: EventFrame) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return streams.filter { $0.send(frame) }.count
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return streams.count
    }
}

@Suite("Event stream backlog overflow")
struct StreamOverflowTests {
    /// A client that connects to `/events` and never reads.
    private func stalledReader(port: UInt16) throws -> RawConnection {
        let connection = try RawConnection(port: port, receiveBuffer: 4096)
        try connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        return connection
    }

    @Test("A stream overflowing during a broadcast under the app's lock ends, and nothing deadlocks")
    func overflowDuringBroadcast() throws {
        let app = LockedSubscribers()
        let configuration = testConfiguration { $0.maxStreamBacklogBytes = 64 * 1024 }
        try withServer(configuration, handle: app.handler) { server in
            let stalled = try stalledReader(port: server.port)
            #expect(eventually { app.count == 1 })
            let frame = EventFrame(id: nil, event: "big", data: String(repeating: "y", count: 256 * 1024))
            let ended = finishes(within: 10) {
                // At most a few MB fit in the kernel's buffers; then the backlog overflows.
                for _ in 0..<100 where app.broadcast(frame) == 0 { break }
            }
            #expect(ended, "the broadcast returned (no self-deadlock)")
            #expect(eventually { app.closed.values.count == 1 && app.count == 0 })
            #expect(stalled.drainsToClose(), "the overflowed stream's connection is closed, not drained")
            #expect(try RawConnection(port: server.port).request("GET", "/ok").status == 200)
        }
    }

    @Test("A stream overflowing during the subscribe's first send ends, and nothing deadlocks")
    func overflowDuringSubscribe() throws {
        let app = LockedSubscribers()
        // The first event (48 KiB) alone is over this backlog limit.
        let configuration = testConfiguration { $0.maxStreamBacklogBytes = 16 * 1024 }
        try withServer(configuration, handle: app.handler) { server in
            let connections = try (0..<3).map { _ in try stalledReader(port: server.port) }
            #expect(eventually { app.closed.values.count == 3 })
            #expect(app.count == 0)
            #expect(connections.allSatisfy { $0.drainsToClose() })
            #expect(try RawConnection(port: server.port).request("GET", "/ok").status == 200)
        }
    }

    @Test("stop() returns within its bounds while stalled streams hold full backlogs")
    func stalledStreamsAtShutdown() throws {
        let app = LockedSubscribers()
        let server = HTTPServer(
            configuration: testConfiguration {
                $0.maxStreamBacklogBytes = 8 << 20
                $0.shutdownGrace = .seconds(1)
                $0.shutdownForceAfter = .seconds(2)
            },
            handler: ClosureHTTPHandler(app.handler), logger: quietLogger)
        try server.start()
        let stalled = try (0..<4).map { _ in try stalledReader(port: server.port) }
        #expect(eventually { app.count == 4 })
        // About 4 MB per stream: more than the kernel holds, less than the backlog limit.
        let frame = EventFrame(id: nil, event: "big", data: String(repeating: "z", count: 200 * 1024))
        for _ in 0..<20 { #expect(app.broadcast(frame) == 4) }
        let clean = Recorder<Bool>()
        let stopped = finishes(within: 15) { clean.append(server.stop()) }
        #expect(stopped, "stop() returned")
        #expect(clean.values == [true])
        #expect(app.closed.values.count == 4, "every stream ended and its close callback ran")
        _ = stalled
    }
}
