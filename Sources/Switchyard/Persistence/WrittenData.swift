/// A persistent coordinator's data as the last restore document wrote it, with the value it was written from: a
/// document written while the value is unchanged (`==`) reuses the bytes instead of encoding the value again.
///
/// Only for data of a value type that is `Equatable` (most are: synthesized conformances compare every stored
/// property, as the encoding writes them); data that is a class instance is encoded every time, since the instance
/// kept would be the one mutated. The bytes are those `Codable` encoding writes, so a document written from the kept
/// bytes is the one written afresh, as long as `==` holds only for values that encode alike (a struct that holds a
/// mutable class instance, or whose hand-written `==` ignores a stored property, should not be `Equatable`, or not
/// be the persistent state itself).
struct WrittenData {
    private let value: any Equatable
    /// The data's JSON.
    let bytes: [UInt8]

    init(value: any Equatable, bytes: [UInt8]) {
        self.value = value
        self.bytes = bytes
    }

    /// Whether `other` is the value the bytes were written from.
    func isWritten(from other: some Any) -> Bool {
        Self.equal(value, other)
    }

    private static func equal<Value: Equatable>(_ value: Value, _ other: Any) -> Bool {
        (other as? Value) == value
    }
}

extension NavigationEngine {
    /// The JSON of `persistent`'s data (node `node`), reusing what the last restore document wrote while the data
    /// is unchanged.
    func dataJSON<Coordinator: PersistentCoordinator>(_ persistent: Coordinator, node: NodeID) throws -> [UInt8] {
        let state = persistent.persistentState
        if let written = writtenData[node], written.isWritten(from: state) { return written.bytes }
        var writer = JSONWriter(capacity: 256)
        writer.value(try JSONValue(encoding: state))
        if !(type(of: state) is AnyClass), let equatable = state as? any Equatable {
            if writtenData.count >= storage.nodes.count {
                // Nodes that left the tree leave the cache (it holds at most one entry per node).
                writtenData = writtenData.filter { storage.nodes[$0.key] != nil }
            }
            writtenData[node] = WrittenData(value: equatable, bytes: writer.bytes)
        }
        return writer.bytes
    }
}
