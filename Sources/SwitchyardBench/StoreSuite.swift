import Foundation
import SQLiteStore
import Switchyard
import SwitchyardServer
import SwitchyardSessions
import TodoDemo

/// The SQLite store: fills it with many stored sessions (as a server would have written them), then measures what
/// a restart costs: opening the store, and reading one session back and restoring its engine.
struct StoreSuite {
    /// Where the store goes (a folder; `switchyard.sqlite` inside, as the server names it).
    let folder: String
    let count: Int

    struct Result: Encodable {
        let sessions: Int
        let bytes: Int
        let fillSeconds: Double
        let openMilliseconds: Double
        let restoreMicroseconds: Percentiles
        /// One change (a session's new state, a history entry with its restore document) committed alone.
        let commitMicroseconds: Percentiles
        /// One stored session id, for the server's boot measurement.
        let sampleSession: String
        /// What a change adds to the store, whole or as a delta, and time travel from the deltas.
        let changeLog: ChangeLogSuite.Result
    }

    func run() throws -> Result {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/switchyard.sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        // A logged-in session on its todos tab with a todo pushed: three versions, each in the history.
        let engine = try DemoStates.loggedIn().engine
        let state = try engine.restoreDocument()
        let created = try TodoDemo.app.makeEngine().restoreDocument()
        let request = Array(#"{"action":"push","route":"todo","input":"hello-world"}"#.utf8)
        let started = Harness.now()
        let archive = try SQLiteSessionArchive(path: path)
        let now = Date().timeIntervalSince1970
        let history = (1...engine.version).map { version in
            StoredChange(
                version: version, time: now, source: .api, request: request, visiblePath: engine.visiblePath,
                state: state)
        }
        let ids = try Self.storeSessions(count, in: archive, created: created, now: now, used: false, batch: 1000) {
            _, id in .change(session: id, base: 0, version: engine.version, state: state, history: history, reply: nil)
        }
        archive.close()
        let fillSeconds = Double(Harness.now() - started) / 1e9

        let opening = Harness.now()
        let reopened = try SQLiteSessionArchive(path: path)
        let openMilliseconds = Double(Harness.now() - opening) / 1e6
        var samples: [Double] = []
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let id = ids.randomElement(using: &generator) ?? ""
            let start = Harness.now()
            guard let stored = try reopened.session(id) else { throw StoreSuiteError.missing(id) }
            let restored = try TodoDemo.app.restoreEngine(from: try JSONValue(parsing: stored.state))
            samples.append(Double(Harness.now() - start) / 1e3 + Double(restored.version & 0))
        }
        var commits: [Double] = []
        var versions: [String: Int] = [:]
        for _ in 0..<2000 {
            let id = ids.randomElement(using: &generator) ?? ""
            let base = versions[id] ?? engine.version
            let version = base + 1
            versions[id] = version
            let change = StoredChange(
                version: version, time: now, source: .api, request: request, visiblePath: engine.visiblePath,
                state: state)
            let start = Harness.now()
            try reopened.apply([
                .change(session: id, base: base, version: version, state: state, history: [change], reply: nil)
            ])
            commits.append(Double(Harness.now() - start) / 1e3)
        }
        reopened.close()
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return Result(
            sessions: count, bytes: bytes, fillSeconds: fillSeconds, openMilliseconds: openMilliseconds,
            restoreMicroseconds: Percentiles(samples), commitMicroseconds: Percentiles(commits),
            sampleSession: ids.randomElement(using: &generator) ?? "",
            changeLog: try ChangeLogSuite(folder: folder, sessions: min(count, 2000)).run())
    }

    /// Stores `count` new demo sessions created as `created` at `now`, `batch` to a write, each followed by the
    /// change `change` gives for its index and id (nil: it stays as created); returns their ids.
    static func storeSessions(
        _ count: Int, in archive: any SessionArchive, created: [UInt8], now: Double, used: Bool = true,
        batch: Int = 500, change: (_ index: Int, _ id: String) -> ArchiveWrite?
    ) throws -> [String] {
        var ids: [String] = []
        ids.reserveCapacity(count)
        for first in stride(from: 0, to: count, by: batch) {
            var writes: [ArchiveWrite] = []
            for index in first..<min(count, first + batch) {
                let id = newID()
                ids.append(id)
                writes.append(
                    .create(
                        StoredSession(id: id, app: "todo", version: 0, state: created, lastAccess: now, used: used),
                        creation: nil))
                if let write = change(index, id) { writes.append(write) }
            }
            try archive.apply(writes)
        }
        return ids
    }

    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%016llx%016llx", generator.next() as UInt64, generator.next() as UInt64)
    }
}

enum StoreSuiteError: Error {
    case missing(String)
}
