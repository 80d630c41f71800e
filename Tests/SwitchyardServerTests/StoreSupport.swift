import Foundation
import SQLiteStore
import SwitchyardServer
import SwitchyardSessions
import Synchronization

/// A SQLite store in a fresh temporary folder, removed when the value is released.
final class TemporaryStore: Sendable {
    let folder: String
    var path: String { folder + "/switchyard.sqlite" }

    init() throws {
        folder = NSTemporaryDirectory() + "switchyard-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Opens the store's file (a "process start").
    func open(maxBytes: Int? = nil, historyRetention: Int? = nil) throws -> SQLiteSessionArchive {
        try SQLiteSessionArchive(path: path, maxBytes: maxBytes, limits: StoreLimits(historyEntries: historyRetention))
    }

    /// Runs `body` with a server on a newly opened archive of this store; stops both afterwards (a restart is two
    /// calls in a row).
    func withServer<Result>(
        _ adjust: (inout ServerConfiguration) -> Void = { _ in }, archive: SQLiteSessionArchive? = nil,
        _ body: (TestServer, SQLiteSessionArchive) throws -> Result
    ) throws -> Result {
        let archive = try archive ?? open()
        let server = try TestServer { configuration in
            configuration.archive = archive
            adjust(&configuration)
        }
        defer {
            server.stop()
            archive.close()
        }
        return try body(server, archive)
    }
}

/// The address a server keeps across restarts: the port the first start was given, taken again by the next ones.
final class ServerAddress: Sendable {
    private let bound = Mutex<UInt16>(0)
    /// The port (0 before the first start).
    var port: UInt16 { bound.withLock { $0 } }
    fileprivate func take(_ port: UInt16) { bound.withLock { $0 = port } }
}

extension TemporaryStore {
    /// A server on a newly opened archive of this store at `address` (a free port the first time): starting one
    /// after stopping the last is a restart clients find where they left it.
    func server(at address: ServerAddress) throws -> TestServer {
        let archive = try open()
        let server = try TestServer({ $0.archive = archive }, transport: { $0.port = address.port })
        address.take(server.port)
        return server
    }
}

/// An archive that fails on demand around a real one: for the server's handling of store faults.
final class FaultyArchive: SessionArchive {
    let inner: any SessionArchive
    let failing = Atomic<Bool>(false)
    /// What a failing call throws.
    let failure: ArchiveError
    /// What ``condition`` says (nil: the inner archive's).
    let reported = Mutex<ArchiveCondition?>(nil)

    init(_ inner: any SessionArchive, failure: ArchiveError = .unavailable("disk full (simulated)")) {
        self.inner = inner
        self.failure = failure
    }

    private func check() throws(ArchiveError) {
        if failing.load(ordering: .relaxed) { throw failure }
    }

    var condition: ArchiveCondition { reported.withLock { $0 } ?? inner.condition }

    func apply(_ writes: [ArchiveWrite]) throws(ArchiveError) {
        try check()
        try inner.apply(writes)
    }

    func session(_ id: String) throws(ArchiveError) -> StoredSession? {
        try check()
        return try inner.session(id)
    }

    func history(of session: String, after: Int?, limit: Int) throws(ArchiveError) -> [StoredChange] {
        try check()
        return try inner.history(of: session, after: after, limit: limit)
    }

    func state(of session: String, at version: Int) throws(ArchiveError) -> [UInt8]? {
        try check()
        return try inner.state(of: session, at: version)
    }

    func creation(_ key: String) throws(ArchiveError) -> StoredReply? {
        try check()
        return try inner.creation(key)
    }

    func version(of session: String) throws(ArchiveError) -> Int? {
        try check()
        return try inner.version(of: session)
    }

    func sessionIDs(ofApp app: String, after: String?, limit: Int) throws(ArchiveError) -> [String] {
        try check()
        return try inner.sessionIDs(ofApp: app, after: after, limit: limit)
    }

    func expire(usedBefore: Double, unusedBefore: Double) throws(ArchiveError) -> [String] {
        try check()
        return try inner.expire(usedBefore: usedBefore, unusedBefore: unusedBefore)
    }

    func close() { inner.close() }
}
