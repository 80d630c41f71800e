/// A persistent coordinator's data as the last restore document wrote it, with the value it was written from: a
/// document written while the value encodes as it did (``EncodesLike``) reuses the bytes instead of encoding the
/// value again. Only for data that conforms to ``EncodesLike``; any other is encoded for every document.
///
/// Once a restore document is made, the bytes are that document's own (``rebase(onto:at:)``): the session keeps the
/// document anyway, so the data is not held twice.
struct WrittenData {
    private let value: any EncodesLike
    /// The text holding the data's JSON (its own encoding, or a restore document), and where in it: 16 bytes
    /// where a slice takes 32 (the engine keeps one per persistent coordinator).
    private var text: [UInt8]
    private var start: Int32
    private var end: Int32

    init(value: any EncodesLike, bytes: [UInt8]) {
        self.value = value
        text = bytes
        start = 0
        end = Int32(clamping: bytes.count)
    }

    /// The data's JSON.
    var bytes: ArraySlice<UInt8> { text[Int(start)..<Int(end)] }

    /// Takes the bytes from `document`, which holds them at `span` (the restore document just written).
    mutating func rebase(onto document: [UInt8], at span: Range<Int>) {
        guard span.upperBound <= document.count,
            let start = Int32(exactly: span.lowerBound), let end = Int32(exactly: span.upperBound)
        else { return }
        text = document
        (self.start, self.end) = (start, end)
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
    /// encodes as it did (``EncodesLike``); `kept`: whether the bytes are those ``writtenData`` keeps for the node.
    func dataJSON<Coordinator: PersistentCoordinator>(
        _ persistent: Coordinator, node: NodeID
    ) throws -> (bytes: ArraySlice<UInt8>, kept: Bool) {
        let state = persistent.persistentState
        guard let comparable = state as? any EncodesLike else { return (try Self.encoded(state)[...], false) }
        if let written = writtenData[node], written.isWritten(from: comparable) { return (written.bytes, true) }
        let bytes = try Self.encoded(state)
        if writtenData.count >= storage.nodes.count {
            // Nodes that left the tree leave the cache (it holds at most one entry per node).
            writtenData = writtenData.filter { storage.nodes[$0.key] != nil }
        }
        writtenData[node] = WrittenData(value: comparable, bytes: bytes)
        return (bytes[...], true)
    }

    /// Hands the written data of each node in `spans` the restore document just made, which holds it there: it
    /// keeps the document's bytes, not its own.
    func rebaseWrittenData(onto document: [UInt8], spans: [(node: NodeID, bytes: Range<Int>)]) {
        for (node, span) in spans {
            guard let index = writtenData.index(forKey: node) else { continue }
            writtenData.values[index].rebase(onto: document, at: span)
        }
    }

    private static func encoded(_ state: some Encodable) throws -> [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.value(try JSONValue(encoding: state))
        return writer.bytes
    }
}
