import Foundation
import SwitchyardServer
import SwitchyardSessions
import Testing

@testable import SQLiteStore

/// What the SQLite store checks when it opens, and what a damaged file does to a running store: a botched restore
/// or a damaged page is refused at start with a reason, and a file shortened under a running server fails reads
/// instead of killing the process.
@Suite("SQLite store: start checks and damaged files")
struct SQLiteStartCheckTests {
    /// A store with `count` sessions of about 4 KB each, closed (so that its log is folded into the file).
    static func filledStore(_ count: Int) throws -> TemporaryStore {
        let store = try TemporaryStore()
        let archive = try store.open()
        let padding = String(repeating: "x", count: 4000)
        try archive.apply(
            (0..<count).map { index in
                .create(
                    StoredSession(
                        id: "s\(index)", app: "todo", version: 0, state: Array(#"{"pad":"\#(padding)"}"#.utf8),
                        lastAccess: 1000, used: false), creation: nil)
            })
        archive.close()
        return store
    }

    /// Overwrites page `page` (4 KiB pages) of the store's file with garbage: a page in the middle of a table, the
    /// header and the first pages intact.
    static func damagePage(_ page: Int, of store: TemporaryStore) throws {
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: store.path))
        let size = try file.seekToEnd()
        #expect(size > UInt64(2 * page * 4096))
        try file.seek(toOffset: UInt64(page * 4096))
        file.write(Data(repeating: 0x5A, count: 4096))
        try file.close()
    }

    static func refusal(_ open: () throws -> Void) -> String? {
        do {
            try open()
            return nil
        } catch ArchiveError.unreadable(let reason) {
            return reason
        } catch {
            return "\(error)"
        }
    }

    @Test func anEmptyFileIsRefusedNotTakenForANewStore() throws {
        let store = try TemporaryStore()
        #expect(FileManager.default.createFile(atPath: store.path, contents: Data()))
        let reason = Self.refusal { _ = try store.open() }
        #expect(reason?.contains("empty (0 bytes)") == true, "\(reason ?? "opened")")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)).isEmpty, "the file is left as it was")
    }

    @Test func aDamagedInnerPageIsFoundAtStart() throws {
        let store = try Self.filledStore(200)
        try Self.damagePage(20, of: store)
        let reason = Self.refusal { _ = try store.open() }
        #expect(reason?.contains("damaged") == true, "\(reason ?? "opened")")
    }

    @Test func aLargerStoreIsCheckedAfterItOpensAndTurnsReadOnlyIfDamaged() throws {
        let store = try Self.filledStore(200)
        try Self.damagePage(20, of: store)
        // Checked after opening, as a store larger than `startCheckBytes` is: the restart answers at once.
        let archive = try SQLiteSessionArchive(path: store.path, startCheckBytes: 0)
        defer { archive.close() }
        let deadline = Date().addingTimeInterval(10)
        while archive.condition == .ready, Date() < deadline { usleep(20_000) }
        guard case .readOnly(let reason) = archive.condition else {
            Issue.record("the damage was not reported: \(archive.condition)")
            return
        }
        #expect(reason.contains("damaged"))
        #expect(throws: ArchiveError.self) {
            try archive.apply([
                .create(
                    StoredSession(id: "new", app: "todo", version: 0, state: [], lastAccess: 0, used: false),
                    creation: nil)
            ])
        }
    }

    @Test func aFileShortenedUnderARunningStoreFailsReadsWithoutKillingTheProcess() throws {
        let store = try Self.filledStore(200)
        let archive = try store.open()
        defer { archive.close() }
        #expect(try archive.session("s199") != nil)
        // Cut the file to its first pages, as a failing disk or a careless copy would.
        #expect(truncate(store.path, 8 * 4096) == 0)
        var failures = 0
        for index in stride(from: 199, to: 0, by: -7) {
            do {
                _ = try archive.session("s\(index)")
            } catch {
                failures += 1
            }
        }
        #expect(failures > 0, "reads of the lost pages fail with an error")
    }

    @Test func aReserveIsHeldBesideTheStore() throws {
        let store = try TemporaryStore()
        let archive = try SQLiteSessionArchive(path: store.path, reserveBytes: 1 << 20)
        defer { archive.close() }
        let attributes = try FileManager.default.attributesOfItem(atPath: store.path + ".reserve")
        #expect(attributes[.size] as? Int == 1 << 20)
        #expect(archive.condition == .ready)
    }
}
