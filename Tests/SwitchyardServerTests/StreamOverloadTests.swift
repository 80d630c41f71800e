import Dispatch
import Foundation
import MicroHTTP
import Switchyard
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `body` on a new thread and waits at most `seconds`: false if it did not return (a deadlock), so that the
/// test fails quickly instead of hanging the run. A thread that never returns is left behind.
func finishes(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        body()
        done.signal()
    }
    return done.wait(timeout: .now() + seconds) == .success
}

/// Streams that fall behind while the session broadcasts: the server must keep answering and stop on time.
@Suite("Stream overload")
struct StreamOverloadTests {
    /// Opens the session's stream on a socket with a tiny receive buffer and never reads it.
    private func stalledSubscriber(_ server: TestServer, _ session: DemoSession) throws -> Connection {
        let connection = try Connection(port: server.port, timeout: 5, receiveBuffer: 4096)
        try connection.send(Array("GET \(session.base)/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        return connection
    }

    @Test func aStalledStreamOverflowsDuringBroadcastsAndEverythingKeepsAnswering() throws {
        let server = try TestServer(transport: { $0.maxStreamBacklogBytes = 64 * 1024 })
        let session = try server.createSession()
        try session.logIn()
        let stalled = try stalledSubscriber(server, session)
        #expect(try eventually { try metric("switchyard_sse_subscribers", server) == 1 })
        try session.must(
            session.transition(
                #"{"coordinator":"AuthenticatedCoordinator","steps":[{"action":"focus","route":"todos"}]}"#))
        let push = #"{"coordinator":"TodosCoordinator","steps":[{"action":"push","route":"todo","input":"buy-milk"}]}"#
        // A deep stack makes every broadcast document large (tens of KB): more than the kernel's buffers hold soon.
        let deep = Array(repeating: #"{"action":"push","route":"todo","input":"buy-milk"}"#, count: 40)
        try session.must(
            session.transition(#"{"coordinator":"TodosCoordinator","steps":[\#(deep.joined(separator: ","))]}"#))
        let answered = Locked(0)
        let ok = finishes(within: 60) {
            // Each push broadcasts the state document (several KB) to a client that reads nothing.
            for _ in 0..<300 {
                guard let reply = try? session.transition(push), reply.status == 200 else { break }
                guard (try? session.transition(#"{"action":"back"}"#))?.status == 200 else { break }
                answered.mutate { $0 += 1 }
            }
        }
        #expect(ok, "the requests returned (no deadlock)")
        #expect(answered.value == 300)
        #expect(try eventually { try metric("switchyard_sse_subscribers", server) == 0 }, "the stalled stream ended")
        #expect(try server.get("/healthz").status == 200)
        #expect(finishes(within: 15) { server.stop() }, "stop() returned")
        _ = stalled
    }

    @Test func aStreamWhoseFirstDocumentIsOverTheBacklogEndsAtOnce() throws {
        let server = try TestServer(transport: { $0.maxStreamBacklogBytes = 4 * 1024 })
        let session = try server.createSession()
        try session.logIn()  // the logged-in document is larger than 4 KiB
        let ok = finishes(within: 30) {
            for _ in 0..<20 {
                _ = try? StreamSubscriber(port: server.port, path: session.base + "/stream").next(within: 1)
            }
        }
        #expect(ok, "no deadlock during subscribe")
        #expect(try eventually { try metric("switchyard_sse_subscribers", server) == 0 })
        #expect(try session.must(session.state()).status == 200)
        #expect(finishes(within: 15) { server.stop() }, "stop() returned")
    }
}
