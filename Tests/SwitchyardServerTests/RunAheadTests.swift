import Foundation
import Switchyard
import Synchronization
import Testing

@testable import SwitchyardServer

/// A session's next change is computed while the store commits the one before (early lock release), and nothing
/// is answered, read or refused from a version before it is durable; a failed write takes back the changes that
/// ran ahead of it.
@Suite("Changes running ahead of the store")
struct RunAheadTests {
    /// Logs in and focuses the todos tab; its result names the todos coordinator.
    private static let login =
        #"{"steps":[{"action":"root","route":"authenticated","input":"ada"},{"action":"focus","route":"todos"}]}"#

    private static func push(_ todo: String, on todos: String) -> String {
        #"{"coordinator":"\#(todos)","steps":[{"action":"push","route":"todo","input":"\#(todo)"}]}"#
    }

    /// How many items the stack of coordinator `node` holds in a state document's `tree`.
    private static func stack(of node: String, in tree: JSONValue) -> Int? {
        if tree["id"]?.stringValue == node { return tree["stack"]?.array?.count }
        for child in [tree["root"]] + (tree["stack"]?.array ?? []) + (tree["tabs"]?.array ?? []) {
            if let found = child?["coordinator"].flatMap({ stack(of: node, in: $0) }) { return found }
        }
        return nil
    }

    /// A server on a SQLite store whose writes are held (``HeldWritesArchive``), with a session logged in on the
    /// todos tab: `body` gets its todos coordinator and version.
    private func withHeldWrites(
        _ body: (HeldWritesArchive, DemoSession, _ todos: String, _ version: Int) throws -> Void
    ) throws {
        let store = try TemporaryStore()
        let archive = HeldWritesArchive(try store.open())
        let server = try TestServer { $0.archive = archive }
        defer {
            server.stop()
            archive.close()
        }
        let session = try server.createSession()
        archive.release()
        let login = try session.must(session.transition(Self.login))
        let todos = try #require(login.json["result"]?["coordinator"]?.stringValue)
        try body(archive, session, todos, try #require(login.version))
    }

    @Test func aChangeRunsWhileTheWriteBeforeItIsInFlightAndBothAreAnsweredInOrder() throws {
        try withHeldWrites { archive, session, todos, version throws in
            let first = Pending { try session.transition(Self.push("hello-world", on: todos)) }
            #expect(archive.awaitSubmitted(2), "the first push is written")
            let second = Pending { try session.transition(#"{"coordinator":"\#(todos)","steps":[{"action":"pop"}]}"#) }
            #expect(archive.awaitSubmitted(3), "the pop ran while the push's write was in flight")
            #expect(!first.answered && !second.answered, "neither is answered before it is durable")
            archive.release()
            archive.release()
            #expect(first.reply()?.status == 200)
            #expect(first.reply()?.version == version + 1)
            #expect(second.reply()?.status == 200)
            #expect(second.reply()?.version == version + 2, "the pop ran on the push")
            #expect(try session.state().version == version + 2)
        }
    }

    @Test func aReadWaitsForTheWritesInFlightAndNeverShowsOneThatFailed() throws {
        try withHeldWrites { archive, session, todos, version throws in
            let push = Pending { try session.transition(Self.push("hello-world", on: todos)) }
            #expect(archive.awaitSubmitted(2))
            let read = Pending { try session.state() }
            usleep(100_000)
            #expect(!read.answered, "the read waits for the push's write")
            archive.release(failing: true)
            #expect(push.reply()?.status == 503)
            #expect(read.reply()?.status == 200)
            #expect(read.reply()?.version == version, "the read shows the stored version, not the push in flight")
            let later = Pending { try session.transition(Self.push("buy-milk", on: todos)) }
            #expect(archive.awaitSubmitted(3))
            let reread = Pending { try session.state() }
            usleep(100_000)
            archive.release()
            #expect(later.reply()?.version == version + 1)
            #expect(reread.reply()?.version == version + 1, "a read during a write that lands shows it, once durable")
        }
    }

    @Test func aFailedWriteTakesBackTheChangesThatRanAheadOfIt() throws {
        try withHeldWrites { archive, session, todos, version throws in
            let lost = Pending { try session.transition(Self.push("hello-world", on: todos)) }
            #expect(archive.awaitSubmitted(2))
            let ahead = Pending { try session.transition(Self.push("buy-milk", on: todos)) }
            #expect(archive.awaitSubmitted(3), "the second push ran on the first, in flight")
            archive.release(failing: true)
            // The second push's write builds on the first: it is not stored either (the session is read back only
            // once it is settled), and the push runs again on the session read back from the store.
            archive.release()
            #expect(lost.reply()?.status == 503, "the first push was not stored: a store failure")
            #expect(archive.awaitSubmitted(4), "the second push is written again")
            archive.release()
            let answer = try #require(ahead.reply())
            #expect(answer.status == 200)
            #expect(answer.version == version + 1, "made on the stored version, without the push that failed")
            let state = try session.state()
            #expect(state.version == version + 1)
            #expect(state.json["visible"]?["screen"]?["title"]?.stringValue == "Buy milk")
            #expect(Self.stack(of: todos, in: state.json["tree"] ?? .null) == 1, "no trace of the failed push")
        }
    }

    @Test func aRefusalOnAVersionInFlightStandsOnlyOnceThatVersionIsDurable() throws {
        try withHeldWrites { archive, session, todos, version throws in
            let lost = Pending { try session.transition(Self.push("hello-world", on: todos)) }
            #expect(archive.awaitSubmitted(2))
            // Valid only on the version before the push: refused on the push's version, which never becomes
            // durable.
            let conditional = Pending {
                try session.transition(Self.push("buy-milk", on: todos), headers: [("If-Match", "\"\(version)\"")])
            }
            usleep(100_000)
            #expect(!conditional.answered, "its refusal waits for the push's write")
            archive.release(failing: true)
            #expect(lost.reply()?.status == 503)
            #expect(archive.awaitSubmitted(3), "the conditional push runs again on the stored version, and writes")
            archive.release()
            #expect(conditional.reply()?.status == 200, "not refused for a version that was never stored")
            #expect(conditional.reply()?.version == version + 1)
        }
    }

    @Test func aChangeWithAnIdempotencyKeyWaitsForTheWritesInFlight() throws {
        try withHeldWrites { archive, session, todos, version throws in
            let push = Pending { try session.transition(Self.push("hello-world", on: todos)) }
            #expect(archive.awaitSubmitted(2))
            let keyed = Pending {
                try session.transition(
                    #"{"coordinator":"\#(todos)","steps":[{"action":"pop"}]}"#, headers: [("Idempotency-Key", "k-1")])
            }
            #expect(!archive.awaitSubmitted(3, seconds: 0.3), "its answer is remembered once durable: it waits")
            archive.release()
            #expect(archive.awaitSubmitted(3))
            archive.release()
            #expect(push.reply()?.version == version + 1)
            #expect(keyed.reply()?.version == version + 2)
        }
    }

    @Test func aSessionTakenOutOfMemoryIsReadBackOnlyOnceItsWritesInFlightAreStored() throws {
        try withHeldWrites { archive, session, todos, version throws in
            let push = Pending { try session.transition(Self.push("hello-world", on: todos)) }
            #expect(archive.awaitSubmitted(2))
            // A change of the served apps takes the app's sessions out of memory (as a full server does the least
            // recently used).
            let sessions = session.server.api.sessions
            let reload = Pending {
                sessions.serve(sessions.servedApps.apps, changing: ["todo"])
                return Reply(status: 0, headers: [], body: [])
            }
            usleep(100_000)
            #expect(!reload.answered, "the copy leaves once its write in flight is settled")
            let read = Pending { try session.state() }
            usleep(100_000)
            archive.release()
            #expect(push.reply()?.version == version + 1)
            #expect(reload.reply() != nil)
            #expect(read.reply()?.version == version + 1, "read back with the push, which was acknowledged")
        }
    }

    @Test func aBusySessionOnSQLiteKeepsEveryChangeWithKeyedChangesAndReadsAmongThem() throws {
        let store = try TemporaryStore()
        let (session, start, accepted) = try store.withServer { server, _ throws in
            let session = try server.createSession()
            let login = try session.must(session.transition(Self.login))
            let todos = try #require(login.json["result"]?["coordinator"]?.stringValue)
            let start = try #require(login.version)
            // Valid in any order: each one commits a version.
            let both =
                #"{"coordinator":"\#(todos)","steps":[{"action":"push","route":"todo","input":"hello-world"},"#
                + #"{"action":"pop"}]}"#
            let accepted = Atomic(0)
            let problems = Mutex<[String]>([])
            let threads = DispatchGroup()
            func worker(_ body: @escaping @Sendable () throws -> Void) {
                threads.enter()
                Thread.detachNewThread {
                    do { try body() } catch { problems.withLock { $0.append("\(error)") } }
                    threads.leave()
                }
            }
            for _ in 0..<6 {
                worker {
                    for _ in 0..<30 {
                        let reply = try session.transition(both)
                        guard reply.status == 200 else {
                            throw ProblemText("transition: \(reply.status) \(reply.text)")
                        }
                        accepted.add(1, ordering: .relaxed)
                    }
                }
            }
            worker {
                for index in 0..<15 {
                    let reply = try session.transition(both, headers: [("Idempotency-Key", "busy-\(index)")])
                    guard reply.status == 200 else { throw ProblemText("keyed: \(reply.status) \(reply.text)") }
                    accepted.add(1, ordering: .relaxed)
                    let again = try session.transition(both, headers: [("Idempotency-Key", "busy-\(index)")])
                    guard again.version == reply.version else { throw ProblemText("a keyed retry ran again") }
                }
            }
            worker {
                var seen = 0
                for _ in 0..<40 {
                    let version = try session.state().version ?? -1
                    guard version >= seen else { throw ProblemText("a read went back from \(seen) to \(version)") }
                    seen = version
                }
            }
            #expect(threads.wait(timeout: .now() + 120) == .success, "no writer stalls")
            #expect(problems.withLock { $0 } == [])
            #expect(try session.state().version == start + accepted.load(ordering: .relaxed))
            return (session.id, start, accepted.load(ordering: .relaxed))
        }
        #expect(accepted == 6 * 30 + 15)
        let reopened = try store.open()
        defer { reopened.close() }
        #expect(try reopened.version(of: session) == start + accepted, "every change answered is stored")
    }
}

/// A failed expectation inside a worker thread, as an error.
private struct ProblemText: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A request made on another thread, and its answer once given.
private final class Pending: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let answer = Mutex<Reply?>(nil)

    init(_ request: @escaping @Sendable () throws -> Reply) {
        Thread.detachNewThread { [self] in
            let reply = try? request()
            answer.withLock { $0 = reply }
            done.signal()
        }
    }

    /// Whether it was answered yet.
    var answered: Bool { answer.withLock { $0 != nil } }

    /// The answer, waiting up to `seconds` for it; nil when none came (or the request threw).
    func reply(within seconds: Int = 30) -> Reply? {
        if done.wait(timeout: .now() + .seconds(seconds)) == .success { done.signal() }
        return answer.withLock { $0 }
    }
}
