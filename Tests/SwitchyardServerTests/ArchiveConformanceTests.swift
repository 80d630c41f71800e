import Foundation
import Switchyard
import SwitchyardServer
import Synchronization
import Testing

/// One contract for every store: memory, SQLite and PostgreSQL keep and refuse exactly the same things.
@Suite("Store conformance")
struct ArchiveConformanceTests {
    static func session(_ id: String, time: Double = 1000) -> StoredSession {
        StoredSession(id: id, app: "todo", version: 0, state: state(0), lastAccess: time, used: false)
    }

    static func state(_ version: Int, _ note: String = "") -> [UInt8] {
        Array(#"{"v":\#(version)\#(note)}"#.utf8)
    }

    static func change(_ id: String, from base: Int, to version: Int, reply: StoredReply? = nil) -> ArchiveWrite {
        .change(
            session: id, base: base, version: version, state: state(version),
            history: ((base + 1)...max(base + 1, version)).filter { $0 <= version }.map { made in
                StoredChange(
                    version: made, time: 2000 + Double(made), source: .api, request: Array(#"{"n":\#(made)}"#.utf8),
                    visiblePath: ["tabs", "p\(made)"], state: state(made))
            }, reply: reply)
    }

    static func reply(_ key: String, session: String, _ body: String = "ok") -> StoredReply {
        StoredReply(
            key: key, fingerprint: UInt64.max - 7, session: session, status: 201, headers: [("ETag", "\"1\"")],
            body: Array(body.utf8))
    }

    /// A history entry keeps the coordinators its change started and finished, in their order.
    @Test(arguments: ArchiveKind.available)
    func aHistoryEntryKeepsItsLifecycle(kind: ArchiveKind) throws {
        let (archive, keep) = try kind.open()
        defer { archive.close() }
        _ = keep
        try archive.apply([.create(Self.session("s1"), creation: nil)])
        let started = [
            CoordinatorReference(id: try #require(NodeID("n12")), type: "AuthenticatedCoordinator"),
            CoordinatorReference(id: try #require(NodeID("n14")), type: "TodosCoordinator"),
        ]
        let finished = [CoordinatorReference(id: try #require(NodeID("n6")), type: "UnauthenticatedCoordinator")]
        guard
            case .change(let id, let base, let version, let state, var history, let reply) = Self.change(
                "s1", from: 0, to: 2)
        else { return }
        history[1].started = started
        history[1].finished = finished
        try archive.apply([
            .change(session: id, base: base, version: version, state: state, history: history, reply: reply)
        ])
        let entries = try archive.history(of: "s1", after: nil, limit: 10)
        #expect(entries.map(\.version) == [1, 2])
        #expect(entries[0].started.isEmpty && entries[0].finished.isEmpty, "an entry without lifecycle has none")
        #expect(entries[1].started == started)
        #expect(entries[1].finished == finished)
    }

    @Test(arguments: ArchiveKind.available)
    func aCreatedSessionReadsBackWithItsKeyedCreation(kind: ArchiveKind) throws {
        let (archive, keep) = try kind.open()
        defer { archive.close() }
        _ = keep
        let creation = Self.reply("client key", session: "s1")
        try archive.apply([.create(Self.session("s1"), creation: creation)])
        let stored = try #require(try archive.session("s1"))
        #expect(stored.app == "todo")
        #expect(stored.version == 0)
        #expect(stored.state == Self.state(0))
        #expect(stored.lastAccess == 1000)
        #expect(!stored.used)
        #expect(try archive.version(of: "s1") == 0)
        #expect(try archive.version(of: "nobody") == nil)
        #expect(try archive.session("nobody") == nil)
        let found = try #require(try archive.creation("client key"))
        #expect(found.session == "s1")
        #expect(found.fingerprint == UInt64.max - 7)
        #expect(found.status == 201)
        #expect(found.headers.map { "\($0.0)=\($0.1)" } == ["ETag=\"1\""])
        #expect(found.body == Array("ok".utf8))
        #expect(try archive.state(of: "s1", at: 0) == Self.state(0))
    }

    @Test(arguments: ArchiveKind.available)
    func aChangeIsACompareAndSetOnTheVersion(kind: ArchiveKind) throws {
        let (archive, keep) = try kind.open()
        defer { archive.close() }
        _ = keep
        try archive.apply([.create(Self.session("s"), creation: nil)])
        try archive.apply([Self.change("s", from: 0, to: 1)])
        // Another node's change made from version 0 too: refused, nothing stored.
        #expect(throws: ArchiveError.self) { try archive.apply([Self.change("s", from: 0, to: 1)]) }
        do {
            try archive.apply([Self.change("s", from: 0, to: 1)])
        } catch {
            guard case .conflict = error else { throw error }
        }
        #expect(try archive.version(of: "s") == 1)
        #expect(try archive.history(of: "s", after: nil, limit: 10).map(\.version) == [1])
        // A session that is not stored: a conflict too.
        #expect(throws: ArchiveError.self) { try archive.apply([Self.change("gone", from: 0, to: 1)]) }
        // A batch is all or nothing.
        #expect(throws: ArchiveError.self) {
            try archive.apply([Self.change("s", from: 1, to: 2), Self.change("gone", from: 0, to: 1)])
        }
        #expect(try archive.version(of: "s") == 1)
        try archive.apply([Self.change("s", from: 1, to: 3)])  // one change, two versions
        let stored = try #require(try archive.session("s"))
        #expect(stored.version == 3)
        #expect(stored.state == Self.state(3))
        #expect(stored.used)
        #expect(try archive.history(of: "s", after: nil, limit: 10).map(\.version) == [1, 2, 3])
    }

    @Test(arguments: ArchiveKind.available)
    func aKeyTakenByAnotherCreationIsAConflict(kind: ArchiveKind) throws {
        let (archive, keep) = try kind.open()
        defer { archive.close() }
        _ = keep
        try archive.apply([.create(Self.session("first"), creation: Self.reply("k", session: "first"))])
        #expect {
            try archive.apply([.create(Self.session("second"), creation: Self.reply("k", session: "second"))])
        } throws: { error in
            guard case .conflict = error as? ArchiveError else { return false }
            return true
        }
        #expect(try archive.session("second") == nil)
        #expect(try archive.creation("k")?.session == "first")
    }

    @Test(arguments: ArchiveKind.available)
    func historyPagesAndEveryVersionReadsBack(kind: ArchiveKind) throws {
        let (archive, keep) = try kind.open()
        defer { archive.close() }
        _ = keep
        try archive.apply([.create(Self.session("s"), creation: nil)])
        for version in 1...6 { try archive.apply([Self.change("s", from: version - 1, to: version)]) }
        #expect(try archive.history(of: "s", after: nil, limit: 2).map(\.version) == [5, 6])
        #expect(try archive.history(of: "s", after: 2, limit: 3).map(\.version) == [3, 4, 5])
        let entry = try #require(try archive.history(of: "s", after: 3, limit: 1).first)
        #expect(entry.time == 2004)
        #expect(entry.source == .api)
        #expect(entry.request == Array(#"{"n":4}"#.utf8))
        #expect(entry.visiblePath == ["tabs", "p4"])
        #expect(entry.state.isEmpty, "states are read one by one")
        for version in 0...6 { #expect(try archive.state(of: "s", at: version) == Self.state(version)) }
        #expect(try archive.state(of: "s", at: 7) == nil)
        #expect(try archive.state(of: "other", at: 0) == nil)
    }

    @Test(arguments: ArchiveKind.available)
    func aChangeWithoutANewVersionReplacesTheCurrentState(kind: ArchiveKind) throws {
        let (archive, keep) = try kind.open()
        defer { archive.close() }
        _ = keep
        try archive.apply([.create(Self.session("s"), creation: nil)])
        let data = Self.state(0, #","todo":"milk""#)
        try archive.apply([.change(session: "s", base: 0, version: 0, state: data, history: [], reply: nil)])
        #expect(try archive.session("s")?.state == data)
        #expect(try archive.state(of: "s", at: 0) == data)
        try archive.apply([Self.change("s", from: 0, to: 1)])
        let later = Self.state(1, #","todo":"tea""#)
        try archive.apply([.change(session: "s", base: 1, version: 1, state: later, history: [], reply: nil)])
        #expect(try archive.session("s")?.state == later)
        #expect(try archive.state(of: "s", at: 1) == later)
        #expect(try archive.state(of: "s", at: 0) == data)
    }

    @Test(arguments: ArchiveKind.available)
    func retentionKeepsTheLatestEntriesAndRepliesAreBoundedAndReplaced(kind: ArchiveKind) throws {
        let (archive, keep) = try kind.open(historyRetention: 3, replyLimit: 2)
        defer { archive.close() }
        _ = keep
        try archive.apply([.create(Self.session("s"), creation: nil)])
        for version in 1...6 {
            try archive.apply([
                Self.change("s", from: version - 1, to: version, reply: Self.reply("k\(version)", session: "s"))
            ])
        }
        #expect(try archive.history(of: "s", after: nil, limit: 100).map(\.version) == [4, 5, 6])
        #expect(try archive.state(of: "s", at: 3) == nil)
        #expect(try archive.session("s")?.replies.map(\.key) == ["k5", "k6"])
        // A key stored again (a node had forgotten it) replaces its answer and counts as the newest.
        try archive.apply([Self.change("s", from: 6, to: 7, reply: Self.reply("k5", session: "s", "again"))])
        let replies = try #require(try archive.session("s")?.replies)
        #expect(replies.map(\.key) == ["k6", "k5"])
        #expect(replies.last?.body == Array("again".utf8))
    }

    @Test(arguments: ArchiveKind.available)
    func expiryEndsIdleSessionsAndTouchesKeepThemAlive(kind: ArchiveKind) throws {
        let (archive, keep) = try kind.open()
        defer { archive.close() }
        _ = keep
        try archive.apply([
            .create(Self.session("unused", time: 1000), creation: nil),
            .create(Self.session("used", time: 1000), creation: Self.reply("k", session: "used")),
            .create(Self.session("touched", time: 1000), creation: nil),
            .create(Self.session("changed", time: 1000), creation: nil),
        ])
        try archive.apply([
            .touch(session: "used", lastAccess: 1100, used: true),
            .touch(session: "touched", lastAccess: 5000, used: false),
            .touch(session: "nobody", lastAccess: 5000, used: true),
        ])
        try archive.apply([Self.change("changed", from: 0, to: 1)])
        // Unused sessions idle since 1500 end; used ones only when idle since 1050. A change is a use at its time.
        #expect(try archive.expire(usedBefore: 1050, unusedBefore: 1500).sorted() == ["unused"])
        #expect(try archive.expire(usedBefore: 1200, unusedBefore: 1500).sorted() == ["used"])
        #expect(try archive.session("changed")?.lastAccess == 2001)
        #expect(try archive.expire(usedBefore: 2500, unusedBefore: 2500).sorted() == ["changed"])
        #expect(try archive.session("used") == nil)
        #expect(try archive.creation("k") == nil, "a session's keyed creation goes with it")
        #expect(try archive.session("touched")?.lastAccess == 5000)
        try archive.apply([.touch(session: "touched", lastAccess: 10, used: false)])
        #expect(try archive.session("touched")?.lastAccess == 5000, "a touch never moves the time back")
    }

    @Test(arguments: ArchiveKind.available)
    func removingASessionRemovesEverythingOfIt(kind: ArchiveKind) throws {
        let (archive, keep) = try kind.open()
        defer { archive.close() }
        _ = keep
        try archive.apply([.create(Self.session("s"), creation: Self.reply("c", session: "s"))])
        try archive.apply([Self.change("s", from: 0, to: 1, reply: Self.reply("k", session: "s"))])
        try archive.apply([.remove(session: "s"), .remove(session: "never")])
        #expect(try archive.session("s") == nil)
        #expect(try archive.version(of: "s") == nil)
        #expect(try archive.history(of: "s", after: nil, limit: 10).isEmpty)
        #expect(try archive.state(of: "s", at: 1) == nil)
        #expect(try archive.creation("c") == nil)
        // The id can be used again (ids are random; this is about leftovers).
        try archive.apply([.create(Self.session("s"), creation: Self.reply("c", session: "s"))])
        #expect(try archive.session("s")?.replies.isEmpty == true)
    }

    @Test(arguments: ArchiveKind.available)
    func aClosedStoreRefusesEverything(kind: ArchiveKind) throws {
        let (archive, keep) = try kind.open()
        _ = keep
        archive.close()
        archive.close()
        #expect(throws: ArchiveError.closed) { try archive.apply([.create(Self.session("s"), creation: nil)]) }
        #expect(throws: ArchiveError.closed) { _ = try archive.session("s") }
    }

    @Test(arguments: ArchiveKind.available.filter { $0 != .sqlite })
    func aCopyIsCheckedInOneReadThatBringsOnlyWhatMoved(kind: ArchiveKind) throws {
        let (opened, keep) = try kind.open()
        defer { opened.close() }
        _ = keep
        let archive = try #require(opened as? any SharedSessionArchive)
        try archive.apply([.create(Self.session("s"), creation: nil)])
        try archive.apply([Self.change("s", from: 0, to: 1, reply: Self.reply("k", session: "s", "first"))])
        guard case .unchanged(let none) = try archive.session("s", unlessAt: 1, reply: nil) else {
            Issue.record("version 1 is current")
            return
        }
        #expect(none == nil)
        guard case .unchanged(let found) = try archive.session("s", unlessAt: 1, reply: "k") else {
            Issue.record("version 1 is current")
            return
        }
        #expect(found?.body == Array("first".utf8))
        guard case .unchanged(let missing) = try archive.session("s", unlessAt: 1, reply: "other") else {
            Issue.record("version 1 is current")
            return
        }
        #expect(missing == nil)
        guard case .changed(let stored) = try archive.session("s", unlessAt: 0, reply: nil) else {
            Issue.record("version 0 is not current")
            return
        }
        #expect(stored.version == 1)
        #expect(stored.state == Self.state(1))
        #expect(stored.replies.map(\.key) == ["k"])
        guard case .absent = try archive.session("gone", unlessAt: 0, reply: nil) else {
            Issue.record("no such session")
            return
        }
    }

    @Test(arguments: ArchiveKind.available.filter { $0 != .sqlite })
    func aSharedStoreTellsEveryNodeWhatWasStored(kind: ArchiveKind) throws {
        let (opened, keep) = try kind.open()
        defer { opened.close() }
        _ = keep
        let archive = try #require(opened as? any SharedSessionArchive)
        let heard = Mutex<[ArchiveNotice]>([])
        archive.follow { notice in heard.withLock { $0.append(notice) } }
        Thread.sleep(forTimeInterval: 0.3)  // the listener connects
        try archive.apply([.create(Self.session("a"), creation: nil), .create(Self.session("b"), creation: nil)])
        try archive.apply([Self.change("a", from: 0, to: 2)])
        try archive.apply([.change(session: "a", base: 2, version: 2, state: Self.state(2), history: [], reply: nil)])
        try archive.apply([.remove(session: "b")])
        #expect(try archive.versions(of: ["a", "b", "c"]) == ["a": 2])
        let expected: [ArchiveNotice] = [.changed(session: "a", version: 2), .removed(session: "b")]
        #expect(eventually { heard.withLock { $0 } == expected })
    }
}
