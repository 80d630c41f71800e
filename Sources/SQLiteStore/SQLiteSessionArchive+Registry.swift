import SwitchyardSessions

/// The published app versions, in the store's `registry` table: read on the reader's connection; written (rarely:
/// by an admin) on a connection of their own, which waits its turn behind the group commit (`busy_timeout`), with a
/// full sync whatever the store's durability.
extension SQLiteSessionArchive: AppRegistryStore {
    public var registry: (any AppRegistryStore)? { self }

    public func readRegistry() throws(ArchiveError) -> StoredRegistry {
        try reading { reader throws(SQLiteError) in try reader.storedRegistry() }
    }

    public func registryGeneration() throws(ArchiveError) -> Int {
        try reading { reader throws(SQLiteError) in try reader.storedRegistryGeneration() }
    }

    public func storeRegistry(_ document: [UInt8], replacing generation: Int) throws(ArchiveError) {
        guard !writer.isClosed else { throw .closed }
        if case .readOnly(let reason) = condition { throw .unavailable(reason) }
        let stored: Int
        var opened: SQLiteConnection?
        do throws(SQLiteError) {
            let connection = try SQLiteConnection(path: path)
            opened = connection
            try connection.execute("PRAGMA busy_timeout = 5000; PRAGMA synchronous = FULL; BEGIN IMMEDIATE")
            stored = try connection.integer("SELECT COALESCE(MAX(generation), 0) FROM registry")
            if stored == generation {
                try connection.execute("DELETE FROM registry")
                try connection.prepare("INSERT INTO registry(generation, document) VALUES(?, ?)")
                    .bind(.integer(generation + 1), .blob(document)).run()
                try connection.execute("COMMIT")
            } else {
                try connection.execute("ROLLBACK")
            }
        } catch {
            if let opened, opened.inTransaction { try? opened.execute("ROLLBACK") }
            throw error.archiveError
        }
        guard stored == generation else {
            throw .conflict("the published apps changed meanwhile (generation \(stored))")
        }
    }
}
