import Foundation
import Switchyard
import SwitchyardSessions
import Synchronization

/// The contract every ``SwitchyardSessions/SessionArchive`` keeps, as checks a store's own tests run: what memory,
/// SQLite and PostgreSQL keep and refuse, exactly the same.
///
/// Each check opens fresh, empty archives with the factory it is given, uses them and closes them. It throws
/// ``ConformanceFailure`` naming what differs; the checks of ``SwitchyardSessions/SharedSessionArchive`` pass at once
/// for an archive that is not shared. With Swift Testing:
///
/// ```swift
/// @Test(arguments: ArchiveConformance.checks)
/// func myStoreConforms(check: ArchiveConformance.Check) throws {
///     try check.run { limits in try MyArchive(limits: limits) }
/// }
/// ```
public enum ArchiveConformance {
    /// One property of the contract.
    public struct Check: Sendable, CustomStringConvertible {
        /// What it checks, as a sentence in camel case.
        public let name: String
        fileprivate let body: @Sendable (_ open: (StoreLimits) throws -> any SessionArchive) throws -> Void

        /// Runs the check on archives `open` makes: fresh and empty, keeping what the limits allow. Every archive it
        /// opens is closed before it returns.
        public func run(_ open: (StoreLimits) throws -> any SessionArchive) throws {
            var opened: [any SessionArchive] = []
            defer { for archive in opened { archive.close() } }
            try body { limits in
                let archive = try open(limits)
                opened.append(archive)
                return archive
            }
        }

        public var description: String { name }
    }

    /// Every check.
    public static let checks: [Check] = [
        Check(name: "thePublishedAppsAreACompareAndSet") { open in
            let archive = try open(.standard)
            guard let registry = archive.registry else { return }  // a store that keeps none
            try expect(try registry.readRegistry() == StoredRegistry(generation: 0, document: []), "nothing yet")
            try expect(try registry.registryGeneration() == 0)
            try registry.storeRegistry(Array("first".utf8), replacing: 0)
            try expectThrowing(isConflict) {
                try registry.storeRegistry(Array("lost".utf8), replacing: 0)
            }
            try expect(try registry.readRegistry() == StoredRegistry(generation: 1, document: Array("first".utf8)))
            try registry.storeRegistry(Array("second".utf8), replacing: 1)
            try expectThrowing(isConflict) {
                try registry.storeRegistry(Array("stale".utf8), replacing: 1)
            }
            try expect(try registry.registryGeneration() == 2)
            try expect(try registry.readRegistry().document == Array("second".utf8), "a conflict stored nothing")
        },
        Check(name: "aHistoryEntryKeepsItsLifecycle") { open in
            let archive = try open(.standard)
            try archive.apply([.create(Fixture.session("s1"), creation: nil)])
            let started = [
                CoordinatorReference(id: try require(NodeID("n12")), type: "AuthenticatedCoordinator"),
                CoordinatorReference(id: try require(NodeID("n14")), type: "TodosCoordinator"),
            ]
            let finished = [CoordinatorReference(id: try require(NodeID("n6")), type: "UnauthenticatedCoordinator")]
            guard
                case .change(let id, let base, let version, let state, var history, let reply) = Fixture.change(
                    "s1", from: 0, to: 2)
            else { return }
            history[1].started = started
            history[1].finished = finished
            try archive.apply([
                .change(session: id, base: base, version: version, state: state, history: history, reply: reply)
            ])
            let entries = try archive.history(of: "s1", after: nil, limit: 10)
            try expect(entries.map(\.version) == [1, 2])
            try expect(entries[0].started.isEmpty && entries[0].finished.isEmpty, "an entry without lifecycle has none")
            try expect(entries[1].started == started)
            try expect(entries[1].finished == finished)
        },
        Check(name: "aHistoryEntryKeepsTheRouteItsRedirectWentInsteadOf") { open in
            let archive = try open(.standard)
            try archive.apply([.create(Fixture.session("s1"), creation: nil)])
            let admin = PendingRoute(
                ownerPath: ["authenticated", "settings"], ownerType: "SettingsCoordinator", route: "admin",
                input: .string("x"), presentation: .push)
            guard
                case .change(let id, let base, let version, let state, var history, let reply) = Fixture.change(
                    "s1", from: 0, to: 2)
            else { return }
            history[1].redirected = admin
            try archive.apply([
                .change(session: id, base: base, version: version, state: state, history: history, reply: reply)
            ])
            let entries = try archive.history(of: "s1", after: nil, limit: 10)
            try expect(entries.map(\.version) == [1, 2])
            try expect(entries[0].redirected == nil, "an entry that is no redirect has none")
            try expect(entries[1].redirected == admin)
            try expect(entries[1].started.isEmpty, "a redirect alone is kept without coordinators")
        },
        Check(name: "aCreatedSessionReadsBackWithItsKeyedCreation") { open in
            let archive = try open(.standard)
            let creation = Fixture.reply("client key", session: "s1")
            try archive.apply([.create(Fixture.session("s1"), creation: creation)])
            let stored = try require(try archive.session("s1"))
            try expect(stored.app == "todo")
            try expect(stored.version == 0)
            try expect(stored.state == Fixture.state(0))
            try expect(stored.lastAccess == 1000)
            try expect(!stored.used)
            try expect(try archive.version(of: "s1") == 0)
            try expect(try archive.version(of: "nobody") == nil)
            try expect(try archive.session("nobody") == nil)
            let found = try require(try archive.creation("client key"))
            try expect(found.session == "s1")
            try expect(found.fingerprint == UInt64.max - 7)
            try expect(found.status == 201)
            try expect(found.headers.map { "\($0.0)=\($0.1)" } == ["ETag=\"1\""])
            try expect(found.body == Array("ok".utf8))
            try expect(try archive.state(of: "s1", at: 0) == Fixture.state(0))
        },
        Check(name: "aChangeIsACompareAndSetOnTheVersion") { open in
            let archive = try open(.standard)
            try archive.apply([.create(Fixture.session("s"), creation: nil)])
            try archive.apply([Fixture.change("s", from: 0, to: 1)])
            // Another node's change made from version 0 too: refused, nothing stored.
            try expectThrowing(isConflict) { try archive.apply([Fixture.change("s", from: 0, to: 1)]) }
            try expect(try archive.version(of: "s") == 1)
            try expect(try archive.history(of: "s", after: nil, limit: 10).map(\.version) == [1])
            // A session that is not stored: a conflict too.
            try expectThrowing { try archive.apply([Fixture.change("gone", from: 0, to: 1)]) }
            // A batch is all or nothing.
            try expectThrowing {
                try archive.apply([Fixture.change("s", from: 1, to: 2), Fixture.change("gone", from: 0, to: 1)])
            }
            try expect(try archive.version(of: "s") == 1)
            try archive.apply([Fixture.change("s", from: 1, to: 3)])  // one change, two versions
            let stored = try require(try archive.session("s"))
            try expect(stored.version == 3)
            try expect(stored.state == Fixture.state(3))
            try expect(stored.used)
            try expect(try archive.history(of: "s", after: nil, limit: 10).map(\.version) == [1, 2, 3])
        },
        Check(name: "aKeyTakenByAnotherCreationIsAConflict") { open in
            let archive = try open(.standard)
            try archive.apply([.create(Fixture.session("first"), creation: Fixture.reply("k", session: "first"))])
            try expectThrowing(isConflict) {
                try archive.apply([.create(Fixture.session("second"), creation: Fixture.reply("k", session: "second"))])
            }
            try expect(try archive.session("second") == nil)
            try expect(try archive.creation("k")?.session == "first")
        },
        Check(name: "historyPagesAndEveryVersionReadsBack") { open in
            let archive = try open(.standard)
            try archive.apply([.create(Fixture.session("s"), creation: nil)])
            for version in 1...6 { try archive.apply([Fixture.change("s", from: version - 1, to: version)]) }
            try expect(try archive.history(of: "s", after: nil, limit: 2).map(\.version) == [5, 6])
            try expect(try archive.history(of: "s", after: 2, limit: 3).map(\.version) == [3, 4, 5])
            let entry = try require(try archive.history(of: "s", after: 3, limit: 1).first)
            try expect(entry.time == 2004)
            try expect(entry.source == .api)
            try expect(entry.request == Array(#"{"n":4}"#.utf8))
            try expect(entry.visiblePath == ["tabs", "p4"])
            try expect(entry.state.isEmpty, "states are read one by one")
            for version in 0...6 { try expect(try archive.state(of: "s", at: version) == Fixture.state(version)) }
            try expect(try archive.state(of: "s", at: 7) == nil)
            try expect(try archive.state(of: "other", at: 0) == nil)
        },
        Check(name: "aChangeWithoutANewVersionReplacesTheCurrentState") { open in
            let archive = try open(.standard)
            try archive.apply([.create(Fixture.session("s"), creation: nil)])
            let data = Fixture.state(0, #","todo":"milk""#)
            try archive.apply([.change(session: "s", base: 0, version: 0, state: data, history: [], reply: nil)])
            try expect(try archive.session("s")?.state == data)
            try expect(try archive.state(of: "s", at: 0) == data)
            try archive.apply([Fixture.change("s", from: 0, to: 1)])
            let later = Fixture.state(1, #","todo":"tea""#)
            try archive.apply([.change(session: "s", base: 1, version: 1, state: later, history: [], reply: nil)])
            try expect(try archive.session("s")?.state == later)
            try expect(try archive.state(of: "s", at: 1) == later)
            try expect(try archive.state(of: "s", at: 0) == data)
        },
        Check(name: "retentionKeepsTheLatestEntriesAndRepliesAreBoundedAndReplaced") { open in
            let archive = try open(StoreLimits(historyEntries: 3, replies: 2))
            try archive.apply([.create(Fixture.session("s"), creation: nil)])
            for version in 1...6 {
                try archive.apply([
                    Fixture.change(
                        "s", from: version - 1, to: version, reply: Fixture.reply("k\(version)", session: "s"))
                ])
            }
            try expect(try archive.history(of: "s", after: nil, limit: 100).map(\.version) == [4, 5, 6])
            try expect(try archive.state(of: "s", at: 3) == nil)
            try expect(try archive.session("s")?.replies.map(\.key) == ["k5", "k6"])
            // A key stored again (a node had forgotten it) replaces its answer and counts as the newest.
            try archive.apply([Fixture.change("s", from: 6, to: 7, reply: Fixture.reply("k5", session: "s", "again"))])
            let replies = try require(try archive.session("s")?.replies)
            try expect(replies.map(\.key) == ["k6", "k5"])
            try expect(replies.last?.body == Array("again".utf8))
        },
        Check(name: "deltasReadBackAsWholeDocumentsAndRetentionKeepsTheirBases") { open in
            // Entries carrying a delta (as the session layer makes them): a store may keep the delta instead of the
            // document, but every version it still lists reads back whole, byte for byte.
            let archive = try open(StoreLimits(historyEntries: 5))
            try archive.apply([.create(Fixture.session("s", state: Fixture.padded(0)), creation: nil)])
            var previous = (version: 0, state: Fixture.padded(0))
            for version in 1...40 {
                let document = Fixture.padded(version)
                let delta = StateDelta.make(version: version, state: document, previous: previous)
                try expect((delta == nil) == (version % StateDelta.snapshotInterval == 0))
                try archive.apply([
                    .change(
                        session: "s", base: version - 1, version: version, state: document,
                        history: [
                            StoredChange(
                                version: version, time: 2000, source: .api, request: [], visiblePath: ["p"],
                                state: document, delta: delta)
                        ], reply: nil)
                ])
                previous = (version, document)
            }
            let kept = try archive.history(of: "s", after: nil, limit: 100).map(\.version)
            try expect(kept.last == 40 && kept.count >= 5 && kept.count < 5 + StateDelta.snapshotInterval)
            for version in kept { try expect(try archive.state(of: "s", at: version) == Fixture.padded(version)) }
            try expect(try archive.session("s")?.state == Fixture.padded(40))
        },
        Check(name: "expiryEndsIdleSessionsAndTouchesKeepThemAlive") { open in
            let archive = try open(.standard)
            try archive.apply([
                .create(Fixture.session("unused", time: 1000), creation: nil),
                .create(Fixture.session("used", time: 1000), creation: Fixture.reply("k", session: "used")),
                .create(Fixture.session("touched", time: 1000), creation: nil),
                .create(Fixture.session("changed", time: 1000), creation: nil),
            ])
            try archive.apply([
                .touch(session: "used", lastAccess: 1100, used: true),
                .touch(session: "touched", lastAccess: 5000, used: false),
                .touch(session: "nobody", lastAccess: 5000, used: true),
            ])
            try archive.apply([Fixture.change("changed", from: 0, to: 1)])
            // Unused sessions idle since 1500 end; used ones only when idle since 1050. A change is a use at its time.
            try expect(try archive.expire(usedBefore: 1050, unusedBefore: 1500).sorted() == ["unused"])
            try expect(try archive.expire(usedBefore: 1200, unusedBefore: 1500).sorted() == ["used"])
            try expect(try archive.session("changed")?.lastAccess == 2001)
            try expect(try archive.expire(usedBefore: 2500, unusedBefore: 2500).sorted() == ["changed"])
            try expect(try archive.session("used") == nil)
            try expect(try archive.creation("k") == nil, "a session's keyed creation goes with it")
            try expect(try archive.session("touched")?.lastAccess == 5000)
            try archive.apply([.touch(session: "touched", lastAccess: 10, used: false)])
            try expect(try archive.session("touched")?.lastAccess == 5000, "a touch never moves the time back")
        },
        Check(name: "aMigrationEntryKeepsItsOwnTimeAndIsNotAUse") { open in
            let archive = try open(.standard)
            try archive.apply([.create(Fixture.session("s", time: 1000), creation: nil)])
            try archive.apply([Fixture.change("s", from: 0, to: 1)])
            let migration = StoredChange(
                version: 2, time: 9000, source: .migration, request: Array(#"{"migration":{}}"#.utf8),
                visiblePath: ["tabs", "p1"], state: Fixture.state(2))
            try archive.apply([
                .change(session: "s", base: 1, version: 2, state: Fixture.state(2), history: [migration], reply: nil)
            ])
            try expect(try archive.history(of: "s", after: nil, limit: 10).map(\.time).sorted() == [2001, 9000])
            try expect(try archive.session("s")?.lastAccess == 2001, "the session was last used by its change at 2001")
            try expect(try archive.expire(usedBefore: 2500, unusedBefore: 2500) == ["s"])
        },
        Check(name: "removingASessionRemovesEverythingOfIt") { open in
            let archive = try open(.standard)
            try archive.apply([.create(Fixture.session("s"), creation: Fixture.reply("c", session: "s"))])
            try archive.apply([Fixture.change("s", from: 0, to: 1, reply: Fixture.reply("k", session: "s"))])
            try archive.apply([.remove(session: "s"), .remove(session: "never")])
            try expect(try archive.session("s") == nil)
            try expect(try archive.version(of: "s") == nil)
            try expect(try archive.history(of: "s", after: nil, limit: 10).isEmpty)
            try expect(try archive.state(of: "s", at: 1) == nil)
            try expect(try archive.creation("c") == nil)
            // The id can be used again (ids are random; this is about leftovers).
            try archive.apply([.create(Fixture.session("s"), creation: Fixture.reply("c", session: "s"))])
            try expect(try archive.session("s")?.replies.isEmpty == true)
        },
        Check(name: "aClosedStoreRefusesEverything") { open in
            let archive = try open(.standard)
            archive.close()
            archive.close()
            try expectThrowing({ $0 == .closed }) { try archive.apply([.create(Fixture.session("s"), creation: nil)]) }
            try expectThrowing({ $0 == .closed }) { _ = try archive.session("s") }
        },
        Check(name: "aCopyIsCheckedInOneReadThatBringsOnlyWhatMoved") { open in
            guard let archive = try open(.standard).shared else { return }
            try archive.apply([.create(Fixture.session("s"), creation: nil)])
            try archive.apply([Fixture.change("s", from: 0, to: 1, reply: Fixture.reply("k", session: "s", "first"))])
            guard case .unchanged(let none) = try archive.session("s", unlessAt: 1, reply: nil) else {
                throw ConformanceFailure("version 1 is current")
            }
            try expect(none == nil)
            guard case .unchanged(let found) = try archive.session("s", unlessAt: 1, reply: "k") else {
                throw ConformanceFailure("version 1 is current")
            }
            try expect(found?.body == Array("first".utf8))
            guard case .unchanged(let missing) = try archive.session("s", unlessAt: 1, reply: "other") else {
                throw ConformanceFailure("version 1 is current")
            }
            try expect(missing == nil)
            guard case .changed(let stored) = try archive.session("s", unlessAt: 0, reply: nil) else {
                throw ConformanceFailure("version 0 is not current")
            }
            try expect(stored.version == 1)
            try expect(stored.state == Fixture.state(1))
            try expect(stored.replies.map(\.key) == ["k"])
            guard case .absent = try archive.session("gone", unlessAt: 0, reply: nil) else {
                throw ConformanceFailure("no such session")
            }
        },
        Check(name: "theSessionsOfAnAppArePagedInIDOrder") { open in
            let archive = try open(.standard)
            let ids = (0..<7).map { String(format: "%032x", $0 * 977) }
            var other = Fixture.session("f0000000000000000000000000000000")
            other.app = "other"
            try archive.apply(ids.reversed().map { .create(Fixture.session($0), creation: nil) })
            try archive.apply([.create(other, creation: nil)])
            let first = try archive.sessionIDs(ofApp: "todo", after: nil, limit: 3)
            let second = try archive.sessionIDs(ofApp: "todo", after: first.last, limit: 3)
            let third = try archive.sessionIDs(ofApp: "todo", after: second.last, limit: 3)
            try expect(first + second + third == ids, "paged: \(first), \(second), \(third)")
            try expect(try archive.sessionIDs(ofApp: "other", after: nil, limit: 10) == [other.id])
            try expect(try archive.sessionIDs(ofApp: "none", after: nil, limit: 10).isEmpty)
        },
        Check(name: "journeysAreReadInTheOrderAskedWithTheirHistoryOldestFirst") { open in
            let archive = try open(.standard)
            let ids = (0..<5).map { String(format: "%032x", $0 * 977) }
            var other = Fixture.session("f0000000000000000000000000000000")
            other.app = "other"
            try archive.apply(
                ids.reversed().map { .create(Fixture.session($0), creation: nil) } + [.create(other, creation: nil)])
            try archive.apply([Fixture.change(ids[1], from: 0, to: 3)])
            let first = try archive.journeys(of: Array(ids.prefix(2)), entries: 10, requests: .all)
            let second = try archive.journeys(of: Array(ids.dropFirst(2)), entries: 2, requests: .all)
            try expect((first + second).map(\.id) == ids, "paged: \(first.map(\.id)), \(second.map(\.id))")
            let changed = first[1]
            try expect(changed.app == "todo" && changed.version == 3, "at version \(changed.version)")
            try expect(changed.entries.map(\.version) == [1, 2, 3])
            try expect(changed.entries[0].visiblePath == ["tabs", "p1"])
            try expect(changed.entries[2].request == Array(#"{"n":3}"#.utf8))
            try expect(changed.entries[0].time == 2001 && changed.entries[0].source == .api)
            try expect(changed.initialState == Fixture.state(0), "the document of version 0")
            try expect(changed.created == nil || changed.created == 1000, "created \(changed.created ?? 0)")
            try expect(first[0].entries.isEmpty && first[0].version == 0)
            let cut = try archive.journeys(of: [ids[1]], entries: 2, requests: .all)
            try expect(cut.map(\.id) == [ids[1]] && cut[0].entries.map(\.version) == [1, 2], "the oldest entries")
            let mixed = try archive.journeys(of: [ids[4], "missing", other.id, ids[0]], entries: 10, requests: .all)
            try expect(mixed.map(\.id) == [ids[4], other.id, ids[0]], "in the order asked, the missing left out")
            try expect(mixed[1].app == "other", "each with its app")
            try expect(try archive.journeys(of: [], entries: 10, requests: .all).isEmpty)
            // Read for events' names only: an event's request comes, the others' are left empty.
            try archive.apply([
                .change(
                    session: ids[2], base: 0, version: 2, state: Fixture.state(2),
                    history: [
                        StoredChange(
                            version: 1, time: 2001, source: .event, request: Array(#"{"name":"go"}"#.utf8),
                            visiblePath: ["a"], state: Fixture.state(1)),
                        StoredChange(
                            version: 2, time: 2002, source: .api, request: Array(#"{"n":2}"#.utf8),
                            visiblePath: ["b"], state: Fixture.state(2)),
                    ], reply: nil)
            ])
            let events = try archive.journeys(of: [ids[2]], entries: 10, requests: .events)
            try expect(events.map(\.entries.count) == [2], "\(events.map(\.entries.count))")
            try expect(events[0].entries.map(\.request) == [Array(#"{"name":"go"}"#.utf8), []], "only the event's")
            try expect(events[0].entries.map(\.visiblePath) == [["a"], ["b"]])
        },
        Check(name: "aSharedStoreTellsEveryNodeWhatWasStored") { open in
            guard let archive = try open(.standard).shared else { return }
            let heard = Mutex<[ArchiveNotice]>([])
            archive.follow { notice in heard.withLock { $0.append(notice) } }
            Thread.sleep(forTimeInterval: 0.3)  // the listener connects
            try archive.apply([
                .create(Fixture.session("a"), creation: nil), .create(Fixture.session("b"), creation: nil),
            ])
            try archive.apply([Fixture.change("a", from: 0, to: 2)])
            try archive.apply([
                .change(session: "a", base: 2, version: 2, state: Fixture.state(2), history: [], reply: nil)
            ])
            try archive.apply([.remove(session: "b")])
            try expect(try archive.versions(of: ["a", "b", "c"]) == ["a": 2])
            let expected: [ArchiveNotice] = [.changed(session: "a", version: 2), .removed(session: "b")]
            try expect(eventually { heard.withLock { $0 } == expected })
        },
    ]
}

/// The sessions, changes and replies the checks store.
private enum Fixture {
    static func session(_ id: String, time: Double = 1000, state: [UInt8]? = nil) -> StoredSession {
        StoredSession(id: id, app: "todo", version: 0, state: state ?? Self.state(0), lastAccess: time, used: false)
    }

    /// A document large enough for a delta to pay (most of it the same in every version).
    static func padded(_ version: Int) -> [UInt8] {
        Array(
            #"{"v":\#(version),"stack":[\#((0...version % 7).map { "\"screen\($0)\"" }.joined(separator: ","))],"#.utf8)
            + Array(#""pad":"\#(String(repeating: "x", count: 600))"}"#.utf8)
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
}
