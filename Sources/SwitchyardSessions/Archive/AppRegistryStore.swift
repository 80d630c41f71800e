/// Where a store keeps the app versions published through the admin API, so that every node of the store serves the
/// same ones: one document (the server's to write and read) and its generation, which every write raises by one.
///
/// Nodes poll ``registryGeneration()`` (one cheap read) and read the document when it moved. A write is a
/// compare-and-set on the generation, so two admins publishing at once on two nodes cannot lose one another's change:
/// the second fails with ``ArchiveError/conflict(_:)`` and reads again.
public protocol AppRegistryStore: Sendable {
    /// The stored document and its generation; generation 0 with an empty document when nothing was ever written.
    func readRegistry() throws(ArchiveError) -> StoredRegistry
    /// The stored generation (0: nothing was ever written).
    func registryGeneration() throws(ArchiveError) -> Int
    /// Stores `document` as generation `generation + 1`, if the stored generation is still `generation`; otherwise
    /// ``ArchiveError/conflict(_:)`` and nothing is stored.
    func storeRegistry(_ document: [UInt8], replacing generation: Int) throws(ArchiveError)
}

/// The registry document a store keeps, with its generation.
public struct StoredRegistry: Sendable, Equatable {
    /// Raised by one by every write; 0 before the first.
    public var generation: Int
    /// The document (empty before the first write).
    public var document: [UInt8]

    /// A stored registry.
    public init(generation: Int, document: [UInt8]) {
        self.generation = generation
        self.document = document
    }
}
