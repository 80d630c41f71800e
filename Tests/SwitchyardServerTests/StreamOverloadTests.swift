import Dispatch
import Foundation
import MicroHTTP
import Switchyard
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Streams that fall behind while the session broadcasts: the server must keep answering and stop on time.
@Suite("Stream overload")
struct StreamOverloadTests {
    @Test func aSubscriberThatFallsBehindGetsTheLatestStateNotABacklog() throws {
        let server = try TestServer(transport: { $0.maxStreamBacklogBytes = 64 * 1024 })
        let session = try server.createSession()
        try session.logIn()
        try session.must(
            session.transition(
                #"{"coordinator":"AuthenticatedCoordinator","steps":[{"action":"focus","route":"todos"}]}"#))
        // A deep stack makes every document large (tens of KB): soon more than the kernel's buffers hold.
        let deep = Array(repeating: #"{"action":"push","route":"todo","input":"buy-milk"}"#, count: 40)
        try session.must(
            session.transition(#"{"coordinator":"TodosCoordinator","steps":[\#(deep.joined(separator: ","))]}"#))
        // Whole documents (`updates=state`): patches of a push are small enough for the socket buffers to hold.
        let behind = try StreamSubscriber(
            port: server.port, path: session.base + "/stream?updates=state", receiveBuffer: 4096)
        #expect(try eventually { try metric("switchyard_sse_subscribers", server) == 1 })
        let push = #"{"coordinator":"TodosCoordinator","steps":[{"action":"push","route":"todo","input":"buy-milk"}]}"#
        let answered = Locked(0)
        let ok = finishes(within: 60) {
            // Each change is broadcast (its document is several times the backlog limit in all) to a
            // subscriber that reads nothing for now.
            for _ in 0..<300 {
                guard let reply = try? session.transition(push), reply.status == 200 else { break }
                guard (try? session.transition(#"{"action":"back"}"#))?.status == 200 else { break }
                answered.mutate { $0 += 1 }
            }
        }
        #expect(ok, "the requests returned (no deadlock)")
        #expect(answered.value == 300)
        #expect(try server.get("/healthz").status == 200)
        let final = try #require(try session.state().version)
        // Now it reads: it still has its stream, and reaches the final state without all 600 changes between.
        var received = 0
        var reachedFinal = false
        while !reachedFinal, let event = try behind.next(within: 10) {
            received += 1
            reachedFinal = event.id == String(final)
        }
        #expect(reachedFinal, "the subscriber got the final state")
        #expect(received < 600, "\(received) events: the states it was behind on were skipped")
        #expect(try metric("switchyard_sse_subscribers", server) == 1)
        #expect(finishes(within: 15) { server.stop() }, "stop() returned")
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

/// A stream that reconnects after missing much gets the current state, not a replay that would fill its backlog
/// and end it before its first byte.
@Suite("Stream replay")
struct StreamReplayTests {
    @Test func anOldLastEventIDOnALargeSessionGetsTheCurrentStateAndStaysOpen() throws {
        let store = try TemporaryStore()
        let archive = try store.open()
        let server = try TestServer(
            { configuration in
                configuration.archive = archive
                configuration.maxReplayBytes = 32 * 1024
            }, transport: { $0.maxStreamBacklogBytes = 64 * 1024 })
        defer {
            server.stop()
            archive.close()
        }
        let session = try server.createSession()
        try session.logIn()
        let seen = try #require(try session.state().version)
        // 30 versions of a ~5 KB document: about 150 KB of whole documents, past the 64 KiB backlog.
        for _ in 0..<15 {
            try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#))
            try session.must(session.transition(#"{"action":"selectTab","route":"todos"}"#))
        }
        let current = try session.state()
        let reconnect = try StreamSubscriber(
            port: server.port, path: session.base + "/stream?updates=state", lastEventID: String(seen))
        #expect(reconnect.status == 200)
        let event = try #require(try reconnect.next(within: 5), "the stream ended before its first event")
        #expect(event.id == String(current.version!))
        #expect(event.json == current.json)
        #expect(try metric("switchyard_sse_subscribers", server) == 1, "the stream is still open")
    }
}
