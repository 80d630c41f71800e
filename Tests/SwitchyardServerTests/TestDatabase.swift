import Foundation
import SQLiteStore
import SwitchyardServer
import SwitchyardSessions
import Testing

@testable import PostgresStore

/// A PostgreSQL database of its own for one test, in the throwaway cluster `make test` starts
/// (`SWITCHYARD_TEST_DATABASE_URL`); dropped when the value is released.
final class TestDatabase: Sendable {
    /// The cluster's URL, when the tests have one.
    static let clusterURL = ProcessInfo.processInfo.environment["SWITCHYARD_TEST_DATABASE_URL"]
    /// Set by `make test`: tests that need PostgreSQL must not quietly skip.
    static let required = ProcessInfo.processInfo.environment["SWITCHYARD_REQUIRE_POSTGRES"] == "1"

    let name: String
    let url: String
    private let cluster: String

    init() throws {
        guard let cluster = Self.clusterURL else {
            throw TestDatabaseError.noCluster
        }
        self.cluster = cluster
        name = "switchyard_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try Self.connection(cluster).execute("CREATE DATABASE \(name)")
        // The cluster URL names its database last: the test's database replaces it.
        let base = cluster.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        url = base + "/" + name
    }

    deinit {
        _ = try? Self.connection(cluster).execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// A connection for the tests' own statements, patient with a busy machine (creating a database copies one).
    static func connection(_ url: String) throws(PostgresError) -> PostgresConnection {
        try PostgresConnection(url: url, applicationName: "switchyard-tests", timeout: .seconds(60))
    }

    /// Runs SQL in the test's database (to inspect it, or to break things).
    @discardableResult
    func sql(_ text: String) throws -> [[String?]] {
        try Self.connection(url).execute(text).rows.map { row in
            row.map { $0.map { String(decoding: $0, as: UTF8.self) } }
        }
    }
}

enum TestDatabaseError: Error, CustomStringConvertible {
    case noCluster
    var description: String {
        "no PostgreSQL for the tests: set SWITCHYARD_TEST_DATABASE_URL (make test starts a throwaway cluster)"
    }
}

/// The stores the conformance suite holds to one contract.
enum ArchiveKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory, sqlite, postgres

    var testDescription: String { rawValue }

    /// Every kind this run can open: PostgreSQL when the tests have a cluster (and always under `make test`,
    /// where a missing one fails the tests instead of skipping them).
    static var available: [ArchiveKind] {
        TestDatabase.clusterURL != nil || TestDatabase.required ? allCases : [.memory, .sqlite]
    }

    /// A fresh, empty archive of this kind keeping `historyRetention` entries and `replyLimit` replies per session,
    /// and what keeps its storage alive.
    func open(historyRetention: Int? = nil, replyLimit: Int = 256) throws -> (any SessionArchive, AnyObject?) {
        try open(limits: StoreLimits(historyEntries: historyRetention, replies: replyLimit))
    }

    /// A fresh, empty archive of this kind within `limits`, and what keeps its storage alive.
    func open(limits: StoreLimits) throws -> (any SessionArchive, AnyObject?) {
        switch self {
        case .memory:
            return (MemorySessionArchive(limits: limits, nodes: .several), nil)
        case .sqlite:
            let store = try TemporaryStore()
            return (
                try SQLiteSessionArchive(path: store.path, limits: limits),
                store
            )
        case .postgres:
            let database = try TestDatabase()
            return (
                try PostgresSessionArchive(
                    url: database.url, connections: 4, limits: limits),
                database
            )
        }
    }
}
