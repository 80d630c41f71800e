/// A persistent coordinator's data as the last restore document wrote it, with the value it was written from: a
/// document written while the value encodes as it did (``EncodesLike``) reuses the bytes instead of encoding the
/// value again. Only for data that conforms to ``EncodesLike``; any other is encoded for every document.
struct WrittenData {
    private let value: any EncodesLike
    /// The data's JSON.
    let bytes: [UInt8]

    init(value: any EncodesLike, bytes: [UInt8]) {
        self.value = value
        self.bytes = bytes
    }

    /// Whether `other` encodes as the value the bytes were written from.
    func isWritten(from other: some EncodesLike) -> Bool {
        Self.same(value, other)
    }

    private static func same<Value: EncodesLike, Other: EncodesLike>(_ value: Value, _ other: Other) -> Bool {
        guard let other = other as? Value else { return false }
        return value.encodesLike(other)
    }
}

extension NavigationEngine {
    /// The JSON of `persistent`'s data (node `node`), reusing what the last restore document wrote while the data
    /// encodes as it did (``EncodesLike``).
    func dataJSON<Coordinator: PersistentCoordinator>(_ persistent: Coordinator, node: NodeID) throws -> [UInt8] {
        let state = persistent.persistentState
        guard let comparable = state as? any EncodesLike else { return try Self.encoded(state) }
        if let written = writtenData[node], written.isWritten(from: comparable) { return written.bytes }
        let bytes = try Self.encoded(state)
        if writtenData.count >= storage.nodes.count {
            // Nodes that left the tree leave the cache (it holds at most one entry per node).
            writtenData = writtenData.filter { storage.nodes[$0.key] != nil }
        }
        writtenData[node] = WrittenData(value: comparable, bytes: bytes)
        return bytes
    }

    private static func encoded(_ state: some Encodable) throws -> [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.value(try JSONValue(encoding: state))
        return writer.bytes
    }
}
