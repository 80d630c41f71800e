import Foundation
import HTTPTestSupport
import Synchronization
import Testing

/// A session read back from the store (after a restart, or made by another node) races with deletes and expiries:
/// none waits for another's store call, and a session removed while it was read back does not come back.
@Suite("Reading a session back while others remove")
struct ReadBackRaceTests {
    /// Runs `body` on another thread; the returned call waits for it (up to `seconds`) and says whether it ended.
    private func inBackground(_ body: @escaping @Sendable () -> Void) -> (_ seconds: Int) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let ended = Locked(false)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        return { seconds in
            if !ended.value, done.wait(timeout: .now() + .seconds(seconds)) == .success { ended.mutate { $0 = true } }
            return ended.value
        }
    }

    /// A server on the store with one session made by an earlier run (stored, not in memory).
    private func withRestartedServer(_ body: (TestServer, GatedArchive, String) throws -> Void) throws {
        let store = try TemporaryStore()
        let base = try store.withServer { server, _ in try server.createSession().base }
        let archive = GatedArchive(try store.open())
        let server = try TestServer { $0.archive = archive }
        defer {
            server.stop()
            archive.close()
        }
        try body(server, archive, base)
    }

    @Test func aSessionDeletedWhileAnotherRequestReadsItBackStaysDeleted() throws {
        try withRestartedServer { server, archive, base throws in
            archive.reads.close()
            let lookup = Locked<Int?>(nil)
            let loaded = inBackground {
                let status = (try? server.get(base))?.status; lookup.mutate { $0 = status }
            }
            #expect(archive.reads.awaitCaller(), "the GET reads the session back")
            let deletion = Locked<Int?>(nil)
            let deleted = inBackground {
                let status = (try? server.request("DELETE", base))?.status; deletion.mutate { $0 = status }
            }
            let deleteAnswered = deleted(30)
            archive.reads.open()
            #expect(deleteAnswered, "the DELETE does not wait for the read")
            #expect(loaded(30) && deleted(30))
            #expect(deletion.value == 204)
            #expect(lookup.value == 404, "the read began before the delete ended: the session is gone")
            #expect(try server.get(base).status == 404, "and it did not become live again")
            #expect(server.api.sessionCount == 0)
        }
    }

    @Test func aSessionIsReadBackWhileAnExpirySweepWaitsForTheStore() throws {
        try withRestartedServer { server, archive, base throws in
            archive.expiries.close()
            let swept = inBackground { server.api.expireIdleSessions() }
            #expect(archive.expiries.awaitCaller(), "the sweep waits in the store")
            let lookup = Locked<Int?>(nil)
            let loaded = inBackground {
                let status = (try? server.get(base))?.status; lookup.mutate { $0 = status }
            }
            let answered = loaded(30)
            archive.expiries.open()
            #expect(answered, "the read back does not wait for the sweep")
            #expect(swept(30) && loaded(30))
            #expect(lookup.value == 200)
        }
    }
}
