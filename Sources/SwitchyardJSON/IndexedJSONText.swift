/// A JSON text whose objects' and arrays' ends are found once, the first time a diff needs them, and kept: a stream
/// diffs each state document against the one before, so each document is read once instead of twice.
public final class IndexedJSONText {
    /// The text (valid JSON).
    public let bytes: [UInt8]

    /// For each byte that opens an object or an array, the index just after its closing bracket (0 elsewhere).
    private(set) lazy var containerEnds: [Int32] = bytes.withUnsafeBufferPointer { JSONTextScanner.containerEnds($0) }

    /// Wraps a valid JSON text (nothing is read yet).
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }
}
