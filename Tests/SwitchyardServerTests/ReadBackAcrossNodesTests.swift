import Foundation
import HTTPTestSupport
import SwitchyardSessions
import Testing

/// Two requests read one session back at once on a node that had no copy (just restarted): the later read saw a
/// change another node stored meanwhile, the earlier did not and placed its copy first. The later request must not
/// run on that older copy (found by the clients' test through nginx: a pop refused as `cannotPopRoot` right after
/// the push before it was stored).
@Suite("Nodes sharing a store: read-backs racing a change")
struct ReadBackAcrossNodesTests {
    /// Runs `body` on another thread; the returned call waits for it (up to 30 s) and says whether it ended.
    private func inBackground(_ body: @escaping @Sendable () -> Void) -> () -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        return { done.wait(timeout: .now() + .seconds(30)) == .success }
    }

    @Test func aChangeIsNotRunOnACopyAnOlderReadPlacedFirst() throws {
        let archive = MemorySessionArchive(nodes: .several)
        let held = HeldReadsArchive(archive)
        let b = try TestServer { $0.archive = archive }
        defer { b.stop() }
        let a = try TestServer { $0.archive = held }
        defer {
            held.stopHolding()
            a.stop()
        }
        let onB = try b.createSession()
        try onB.logIn()
        try onB.must(
            onB.transition(#"{"coordinator":"AuthenticatedCoordinator","steps":[{"action":"focus","route":"todos"}]}"#))
        held.hold()
        // A's first read (a GET) reads the todos list, and waits.
        let read = Locked<Int?>(nil)
        let readDone = inBackground { read.mutate { $0 = (try? a.get(onB.base))?.status } }
        #expect(held.awaitHeldRead(), "the GET reads the session back")
        // B pushes a todo; then A's second read (a pop) reads that, and waits.
        let pushed = try onB.must(
            onB.transition(
                #"{"coordinator":"TodosCoordinator","steps":[{"action":"push","route":"todo","input":"buy-milk"}]}"#))
        let popped = Locked<Reply?>(nil)
        let popDone = inBackground {
            let reply = try? a.post(
                onB.base + "/transitions", #"{"coordinator":"TodosCoordinator","steps":[{"action":"pop"}]}"#)
            popped.mutate { $0 = reply }
        }
        #expect(held.awaitHeldRead(), "the pop reads the session back")
        // The older read places its copy first; then the newer one finds it in place.
        held.releaseOldest()
        #expect(readDone() && read.value == 200)
        held.stopHolding()
        #expect(popDone())
        let reply = try #require(popped.value)
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.version == (pushed.version ?? 0) + 1)
    }
}
