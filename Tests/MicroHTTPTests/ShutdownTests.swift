import Dispatch
import Foundation
import Testing

@testable import MicroHTTP

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Graceful shutdown")
struct ShutdownTests {
    @Test("stop() lets an in-flight request finish (told to close), refuses new connections, then returns")
    func inFlightRequestFinishes() throws {
        let entered = DispatchSemaphore(value: 0)
        let server = HTTPServer(
            configuration: testConfiguration(),
            handler: ClosureHTTPHandler { request in
                if request.path == "/slow" {
                    entered.signal()
                    usleep(500_000)
                }
                return .json(200, Array("{\"done\":true}".utf8))
            }, logger: quietLogger)
        try server.start()
        let port = server.port
        let result = Recorder<String>()
        let finished = DispatchSemaphore(value: 0)
        onNewThread {
            let response = try? RawConnection(port: port).request("GET", "/slow")
            result.append("\(response?.status ?? -1) \(response?.headers["Connection"] ?? "-")")
            finished.signal()
        }
        #expect(entered.wait(timeout: .now() + 5) == .success)
        let stopped = DispatchSemaphore(value: 0)
        onNewThread {
            server.stop()
            stopped.signal()
        }
        // While stopping, a new connection gets no answer: closed at once, or refused once stopped.
        #expect(
            eventually {
                guard let late = try? RawConnection(port: port, timeout: 2) else { return true }
                try? late.send("GET /late HTTP/1.1\r\nHost: x\r\n\r\n")
                return late.isClosedByPeer()
            })
        #expect(finished.wait(timeout: .now() + 5) == .success)
        #expect(result.values == ["200 close"])
        #expect(stopped.wait(timeout: .now() + 5) == .success)
        #expect(throws: RawError.self) { _ = try RawConnection(port: port) }
    }

    @Test("stop() ends open event streams: onClose fires and the client sees the end")
    func streamsEndOnShutdown() throws {
        let box = StreamBox()
        let server = HTTPServer(
            configuration: testConfiguration { $0.heartbeatInterval = .seconds(30) },
            handler: ClosureHTTPHandler(box.handler), logger: quietLogger)
        try server.start()
        let readers = try (0..<3).map { _ in try EventReader(port: server.port) }
        #expect(eventually { box.streams.values.count == 3 })
        box.streams.values.forEach { $0.send(id: nil, event: nil, data: "before") }
        server.stop()
        #expect(box.closed.values.count == 3)
        #expect(box.streams.values.allSatisfy { $0.isClosed })
        for reader in readers {
            #expect(try reader.next() == "data: before")
            #expect(try reader.next() == nil)
        }
    }

    @Test("stop() gives up on a handler that never returns, after the grace period and the force delay")
    func stuckHandler() throws {
        let entered = DispatchSemaphore(value: 0)
        let never = DispatchSemaphore(value: 0)
        let server = HTTPServer(
            configuration: testConfiguration {
                $0.shutdownGrace = .milliseconds(300)
                $0.shutdownForceAfter = .milliseconds(500)
            },
            handler: ClosureHTTPHandler { _ in
                entered.signal()
                never.wait()  // a handler stuck for good (the thread is left behind)
                return .json(200, [])
            }, logger: quietLogger)
        try server.start()
        let port = server.port
        onNewThread { _ = try? RawConnection(port: port, timeout: 30).request("GET", "/stuck") }
        #expect(entered.wait(timeout: .now() + 5) == .success)
        let result = Recorder<Bool>()
        #expect(finishes(within: 10) { result.append(server.stop()) })
        #expect(result.values == [false], "stop() reports that it did not stop cleanly")
        #expect(server.stop() == false, "a later call reports the same")
    }

    @Test("stop() is idempotent, also before start and from several threads")
    func idempotentStop() throws {
        let never = HTTPServer(
            configuration: testConfiguration(), handler: ClosureHTTPHandler(echo), logger: quietLogger)
        never.stop()
        never.stop()
        let server = HTTPServer(
            configuration: testConfiguration(), handler: ClosureHTTPHandler(echo), logger: quietLogger)
        try server.start()
        #expect(throws: HTTPServerError.alreadyStarted) { try server.start() }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in server.stop() }
        server.stop()
    }
}

/// Signal dispositions are process-wide: these run one at a time.
@Suite("Waiting for termination", .serialized)
struct TerminationTests {
    @Test("waitForTermination returns after stop() from another thread")
    func waitReturnsOnStop() throws {
        let server = HTTPServer(
            configuration: testConfiguration(), handler: ClosureHTTPHandler(echo), logger: quietLogger)
        try server.start()
        onNewThread {
            _ = eventually { server.signalHandlersInstalled.load(ordering: .sequentiallyConsistent) }
            server.stop()
        }
        server.waitForTermination()
        #expect(throws: RawError.self) { _ = try RawConnection(port: server.port) }
    }

    @Test("waitForTermination stops gracefully on SIGTERM")
    func sigterm() throws {
        let server = HTTPServer(
            configuration: testConfiguration(), handler: ClosureHTTPHandler(echo), logger: quietLogger)
        try server.start()
        let port = server.port
        onNewThread {
            guard eventually(within: 10, { server.signalHandlersInstalled.load(ordering: .sequentiallyConsistent) })
            else {
                server.stop()
                return
            }
            kill(getpid(), SIGTERM)
        }
        server.waitForTermination()
        #expect(throws: RawError.self) { _ = try RawConnection(port: port) }
    }
}
