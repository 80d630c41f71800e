import Foundation
import SQLiteStore
import Switchyard
import SwitchyardSessions
import TodoDemo

/// What a change costs the SQLite store: the bytes it adds, with each version's restore document stored whole (as
/// before issue 31) and as a ``StateDelta`` with a snapshot every ``StateDelta/snapshotInterval`` versions (as the
/// session layer writes now), and how long reading back any kept version takes (time travel, `Last-Event-ID`
/// replay) from the deltas. The changes are real demo transitions (a todo pushed and popped, the settings tab with
/// a push, back to the todos), their restore documents made by the engine.
struct ChangeLogSuite {
    let folder: String
    /// Sessions, each given ``changes`` changes.
    let sessions: Int
    let changes = 48

    struct Result: Encodable {
        let sessions: Int
        let changesPerSession: Int
        let snapshotInterval: Int
        /// Bytes the store file grew by per change.
        let bytesPerChangeWhole: Double
        let bytesPerChangeDelta: Double
        /// The restore document of a random kept version read back and its engine restored.
        let timeTravelMicroseconds: Percentiles
    }

    func run() throws -> Result {
        let documents = try Self.documents(changes)
        let whole = try fill(folder + "/changes-whole.sqlite", documents: documents, deltas: false)
        let delta = try fill(folder + "/changes-delta.sqlite", documents: documents, deltas: true)
        let archive = try SQLiteSessionArchive(path: folder + "/changes-delta.sqlite")
        defer { archive.close() }
        var samples: [Double] = []
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let id = Self.id(Int.random(in: 0..<sessions, using: &generator))
            let version = Int.random(in: 0...changes, using: &generator)
            let start = Harness.now()
            guard let state = try archive.state(of: id, at: version), state == documents[version] else {
                throw StoreSuiteError.missing("\(id) at \(version)")
            }
            let engine = try TodoDemo.app.restoreEngine(from: try JSONValue(parsing: state))
            samples.append(Double(Harness.now() - start) / 1e3 + Double(engine.version & 0))
        }
        let count = Double(sessions * changes)
        return Result(
            sessions: sessions, changesPerSession: changes, snapshotInterval: StateDelta.snapshotInterval,
            bytesPerChangeWhole: Double(whole) / count, bytesPerChangeDelta: Double(delta) / count,
            timeTravelMicroseconds: Percentiles(samples))
    }

    /// Creates the sessions, then gives each its changes; returns the bytes the changes added to the file.
    private func fill(_ path: String, documents: [[UInt8]], deltas: Bool) throws -> Int {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let now = Date().timeIntervalSince1970
        var archive = try SQLiteSessionArchive(path: path)
        try archive.apply(
            (0..<sessions).map { index in
                .create(
                    StoredSession(
                        id: Self.id(index), app: "todo", version: 0, state: documents[0], lastAccess: now, used: false),
                    creation: nil)
            })
        archive.close()
        let created = Self.size(path)
        archive = try SQLiteSessionArchive(path: path)
        for version in 1...changes {
            let delta =
                deltas
                ? StateDelta.make(
                    version: version, state: documents[version], previous: (version - 1, documents[version - 1]))
                : nil
            let request = Array(
                #"{"coordinator":"3","steps":[{"push":{"route":"todo","input":"item-\#(version)"}}]}"#.utf8)
            try archive.apply(
                (0..<sessions).map { index in
                    .change(
                        session: Self.id(index), base: version - 1, version: version, state: documents[version],
                        history: [
                            StoredChange(
                                version: version, time: now, source: .api, request: request,
                                visiblePath: ["authenticated", "todos", "list"], state: documents[version], delta: delta
                            )
                        ], reply: nil)
                })
        }
        archive.close()
        return Self.size(path) - created
    }

    /// The restore documents of versions 0…`count` of one session walking the demo.
    static func documents(_ count: Int) throws -> [[UInt8]] {
        let (engine, tabs, todos) = try DemoStates.loggedIn()
        var documents = [try engine.restoreDocument()]
        var settings: NodeID?
        for version in 1...count {
            switch version % 6 {
            case 1: try engine.perform([Step(.push(route: "todo", input: .string("item-\(version)")))], from: todos)
            case 2: try engine.perform([Step(.pop)], from: todos)
            case 3: settings = try engine.perform([Step(.focus(route: "settings"))], from: tabs)
            case 4: try engine.perform([Step(.push(route: "green"))], from: settings ?? tabs)
            case 5: try engine.perform([Step(.popToRoot)], from: settings ?? tabs)
            default: try engine.perform([Step(.focus(route: "todos"))], from: tabs)
            }
            documents.append(try engine.restoreDocument())
        }
        return documents
    }

    private static func id(_ index: Int) -> String { String(format: "bench-%08d", index) }

    private static func size(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
}
