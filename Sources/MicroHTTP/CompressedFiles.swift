import Synchronization

/// The gzip representations of served files, made once per version of a file (its entity tag) and kept while
/// they fit in a budget.
final class CompressedFiles: Sendable {
    private struct Entry {
        var version: String
        var bytes: [UInt8]
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let budget: Int

    /// Keeps at most `budget` bytes of compressed files; past it, files are compressed for each request.
    init(budget: Int = 32 << 20) {
        self.budget = budget
    }

    /// The gzip representation of the file at `path` whose version is `version` (its content is `bytes`).
    func gzip(of path: String, version: String, _ bytes: [UInt8]) -> [UInt8]? {
        if let entry = entries.withLock({ $0[path] }), entry.version == version { return entry.bytes }
        guard let packed = ContentCoding.gzip(bytes) else { return nil }
        entries.withLock { entries in
            entries[path] = nil
            let used = entries.values.reduce(0) { $0 + $1.bytes.count }
            if used + packed.count <= budget { entries[path] = Entry(version: version, bytes: packed) }
        }
        return packed
    }
}
