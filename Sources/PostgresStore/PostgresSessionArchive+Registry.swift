import SwitchyardSessions

/// The published app versions, in the `switchyard_registry` row every node reads: the nodes poll its generation.
extension PostgresSessionArchive: AppRegistryStore {
    public var registry: (any AppRegistryStore)? { self }

    public func readRegistry() throws(ArchiveError) -> StoredRegistry {
        let result = try query(PostgresStatements.registry, [])
        guard !result.rows.isEmpty else { return StoredRegistry(generation: 0, document: []) }
        return StoredRegistry(generation: result.integer(0, 0), document: result.bytes(0, 1))
    }

    public func registryGeneration() throws(ArchiveError) -> Int {
        let result = try query(PostgresStatements.registryGeneration, [])
        return result.rows.isEmpty ? 0 : result.integer(0, 0)
    }

    public func storeRegistry(_ document: [UInt8], replacing generation: Int) throws(ArchiveError) {
        let result = try query(PostgresStatements.storeRegistry, [.integer(generation), .bytes(document)])
        guard !result.rows.isEmpty else {
            throw .conflict("the published apps changed meanwhile (not at generation \(generation) any more)")
        }
    }
}
