import Foundation
import SwitchyardServer
import SwitchyardSessions
import Testing

@testable import SQLiteStore

/// The SQLite archive on its own: opening faults, migrations, group commit, retention.
@Suite("SQLite archive")
struct SQLiteArchiveTests {
    static func session(_ id: String, version: Int = 0, time: Double = 1000) -> StoredSession {
        StoredSession(
            id: id, app: "todo", version: version, state: Array(#"{"v":\#(version)}"#.utf8), lastAccess: time,
            used: false)
    }

    static func change(_ id: String, _ version: Int, reply: StoredReply? = nil) -> ArchiveWrite {
        let state = Array(#"{"v":\#(version)}"#.utf8)
        return .change(
            session: id, base: version - 1, version: version, state: state,
            history: [
                StoredChange(
                    version: version, time: 1000 + Double(version), source: .api, request: Array("{}".utf8),
                    visiblePath: ["a", "b"], state: state)
            ], reply: reply)
    }

    @Test func aCorruptFileIsRefusedWithAReadableReason() throws {
        let store = try TemporaryStore()
        try Data(repeating: 0x42, count: 64 * 1024).write(to: URL(fileURLWithPath: store.path))
        #expect {
            _ = try store.open()
        } throws: { error in
            guard case .unreadable(let reason) = error as? ArchiveError else { return false }
            return reason.contains("not a database")
        }
    }

    @Test func aFolderThatCannotBeWrittenIsRefused() throws {
        guard getuid() != 0 else { return }  // root writes anywhere: the CLI test covers this case as root
        let store = try TemporaryStore()
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: store.folder)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: store.folder) }
        #expect(throws: ArchiveError.self) { _ = try store.open() }
    }

    @Test func aStoreOfANewerSchemaIsRefused() throws {
        let store = try TemporaryStore()
        try store.open().close()
        try SQLiteConnection(path: store.path).execute("PRAGMA user_version = 99")
        #expect {
            _ = try store.open()
        } throws: { error in
            guard case .unreadable(let reason) = error as? ArchiveError else { return false }
            return reason.contains("newer Switchyard (schema 99")
        }
    }

    @Test func aStoreOfTheFirstSchemaIsMigratedAndKeepsItsSessions() throws {
        let store = try TemporaryStore()
        do {
            let old = try SQLiteConnection(path: store.path)
            try old.execute(SQLiteSchema.migrations[0])
            try old.execute("PRAGMA user_version = 1")
            try old.execute(
                """
                INSERT INTO sessions VALUES('s1', 'todo', 3, X'7B7D', 1000, 1000, 1);
                INSERT INTO history VALUES('s1', 3, 1000, 'api', X'7B7D', '["a"]');
                """)
        }
        let archive = try store.open()
        defer { archive.close() }
        let stored = try #require(try archive.session("s1"))
        #expect(stored.version == 3)
        #expect(try archive.history(of: "s1", after: nil, limit: 10).map(\.version) == [3])
        #expect(try archive.state(of: "s1", at: 3) == nil, "written before versions kept their state")
        try archive.apply([Self.change("s1", 4)])
        #expect(try archive.state(of: "s1", at: 4) == Array(#"{"v":4}"#.utf8))
        #expect(try SQLiteConnection(path: store.path).integer("PRAGMA user_version") == SQLiteSchema.current)
    }

    @Test func concurrentWritersShareCommitsAndAllLand() throws {
        let store = try TemporaryStore()
        let archive = try store.open()
        defer { archive.close() }
        try archive.apply((0..<16).map { .create(Self.session("s\($0)"), creation: nil) })
        onThreads(16) { index in
            for version in 1...50 {
                try? archive.apply([Self.change("s\(index)", version)])
            }
        }
        for index in 0..<16 {
            let stored = try #require(try archive.session("s\(index)"))
            #expect(stored.version == 50)
            #expect(try archive.history(of: "s\(index)", after: nil, limit: 1000).map(\.version) == Array(1...50))
        }
        let statistics = try #require(archive.statistics)
        #expect(statistics.batches == 16 * 50 + 1)
        #expect(statistics.commits <= statistics.batches)
    }

    @Test func oneFailingBatchDoesNotFailTheOthersInItsCommit() throws {
        let store = try TemporaryStore()
        let archive = try store.open()
        defer { archive.close() }
        try archive.apply([.create(Self.session("here"), creation: nil)])
        // A change of a session that is not stored fails alone.
        #expect(throws: ArchiveError.self) { try archive.apply([Self.change("missing", 1)]) }
        try archive.apply([Self.change("here", 1)])
        #expect(try archive.session("here")?.version == 1)
        #expect(try archive.session("missing") == nil)
    }

    /// A change that ran ahead of the one before it (``SessionArchive/submit(_:after:)``) is not stored when that one
    /// failed, even on a base version the store holds (another copy of the session may have written it, with
    /// other contents): in the same commit, and in a later one.
    @Test func aWriteBuiltOnAWriteThatFailedIsNotStored() throws {
        let store = try TemporaryStore()
        let archive = try store.open()
        defer { archive.close() }
        try archive.apply([.create(Self.session("s"), creation: nil)])
        // Fails: the session is at version 0, not 4. The next one builds on version 0, which the store holds.
        let failing = archive.submit([Self.change("s", 5)], after: nil)
        let sameCommit = archive.submit([Self.change("s", 1)], after: failing)
        #expect(throws: ArchiveError.self) { try failing.finish().get() }
        #expect(throws: ArchiveError.builtOnFailure) { try sameCommit.finish().get() }
        let laterCommit = archive.submit([Self.change("s", 1)], after: failing)
        #expect(throws: ArchiveError.builtOnFailure) { try laterCommit.finish().get() }
        #expect(try archive.session("s")?.version == 0, "neither is stored")
        let alone = archive.submit([Self.change("s", 1)], after: nil)
        try alone.finish().get()
        let next = archive.submit([Self.change("s", 2)], after: alone)
        try next.finish().get()
        #expect(try archive.session("s")?.version == 2, "one built on a stored write is stored")
    }

    /// The writer knows each session's version from its own writes, without a read per change. A change another
    /// connection committed meanwhile (another process on the same file, a repair by hand) is noticed at the next
    /// commit: the session is checked against what is stored again.
    @Test func aSessionAnotherConnectionChangedIsCheckedAgain() throws {
        let store = try TemporaryStore()
        let archive = try store.open()
        defer { archive.close() }
        try archive.apply([.create(Self.session("moved"), creation: nil), .create(Self.session("gone"), creation: nil)])
        try archive.apply([Self.change("moved", 1), Self.change("gone", 1)])
        let other = try SQLiteConnection(path: store.path)
        try other.execute(
            """
            PRAGMA busy_timeout = 5000;
            INSERT INTO history(session, version, time, source, request, visible_path, state)
                SELECT session, 2, time, source, request, visible_path, state FROM history
                WHERE session = 'moved' AND version = 1;
            DELETE FROM history WHERE session = 'gone';
            DELETE FROM sessions WHERE id = 'gone'
            """)
        #expect(throws: ArchiveError.conflict("session moved is at version 2, not 1")) {
            try archive.apply([Self.change("moved", 2)])
        }
        #expect(throws: ArchiveError.conflict("session gone is no longer stored (it expired or was deleted)")) {
            try archive.apply([Self.change("gone", 2)])
        }
        #expect(try archive.history(of: "gone", after: nil, limit: 10).isEmpty, "no entry of a deleted session")
        try archive.apply([Self.change("moved", 3)])
        #expect(try archive.version(of: "moved") == 3)
    }

    /// Entries past the count kept go at each change, from what the writer knows of the oldest one: read back
    /// after a restart.
    @Test func historyIsPrunedToItsCountAcrossARestart() throws {
        let store = try TemporaryStore()
        var archive = try store.open(historyRetention: 3)
        try archive.apply([.create(Self.session("s"), creation: nil)])
        for version in 1...5 { try archive.apply([Self.change("s", version)]) }
        #expect(try archive.history(of: "s", after: nil, limit: 10).map(\.version) == [3, 4, 5])
        archive.close()
        archive = try store.open(historyRetention: 3)
        defer { archive.close() }
        for version in 6...7 { try archive.apply([Self.change("s", version)]) }
        #expect(try archive.history(of: "s", after: nil, limit: 10).map(\.version) == [5, 6, 7])
    }

    /// A batch that fails after one of its changes was applied, in a commit shared with another, leaves nothing of
    /// that change in what the writer knows: the other batch, on the same base, is stored.
    @Test func aBatchRolledBackInASharedCommitLeavesNoTrace() throws {
        let store = try TemporaryStore()
        let archive = try store.open()
        defer { archive.close() }
        let key = StoredReply(key: "k", fingerprint: 1, session: "first", status: 201, headers: [], body: [])
        try archive.apply([.create(Self.session("s"), creation: nil), .create(Self.session("first"), creation: key)])
        // Its change of s is applied, then its creation under a key already taken fails: the batch rolls back.
        let failing = archive.submit([Self.change("s", 1), .create(Self.session("second"), creation: key)], after: nil)
        let next = archive.submit([Self.change("s", 1)], after: nil)
        #expect(throws: ArchiveError.conflict("a session was created under this key already")) {
            try failing.finish().get()
        }
        try next.finish().get()
        #expect(try archive.version(of: "s") == 1)
        #expect(try archive.session("second") == nil)
    }
}
