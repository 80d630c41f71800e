import Foundation
import SwitchyardServer
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
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: store.path))
        let size = try file.seekToEnd()
        #expect(size > 40 * 4096)
        // A page in the middle of the table (the header and the first pages stay intact).
        try file.seek(toOffset: UInt64(20 * 4096))
        file.write(Data(repeating: 0x5A, count: 4096))
        try file.close()
        let reason = Self.refusal { _ = try store.open() }
        #expect(reason?.contains("damaged") == true, "\(reason ?? "opened")")
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
