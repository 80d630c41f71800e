/// One session's history in the ``MemorySessionArchive``: its entries oldest first (versions increasing), with the
/// bytes they hold, trimmed from the oldest end as ``StoreLimits`` says (the stores trim the same way).
///
/// Trimming moves the start past the entries that go and frees them; the array is compacted once the gap at its
/// front is as long as what follows, so that a session at its retention, which drops one entry per change, does
/// not shift all the others every time.
struct MemoryHistory {
    private var storage: [StoredChange] = []
    /// Where the kept entries start in `storage` (those before it are emptied).
    private var start = 0
    /// Bytes the entries hold (requests and restore documents).
    private(set) var bytes = 0

    /// The entries, oldest first.
    var entries: ArraySlice<StoredChange> { storage[start...] }

    var isEmpty: Bool { start == storage.count }

    /// Adds entries made by a change (a version stored again replaces the one kept, and any after it).
    mutating func append(_ changes: [StoredChange]) {
        for change in changes {
            while storage.count > start, let last = storage.last, last.version >= change.version {
                bytes -= Self.size(storage.removeLast())
            }
            storage.append(change)
            bytes += Self.size(change)
        }
    }

    /// The current version's state changed without a new version (app data): its entry keeps the new state.
    mutating func replaceState(of version: Int, with state: [UInt8]) {
        guard storage.count > start, let last = storage.indices.last, storage[last].version == version else { return }
        bytes += state.count - storage[last].state.count
        storage[last].state = state
    }

    /// Drops the oldest entries: those more than `retention` versions before `version`, then, past `budget` bytes,
    /// enough to leave about three quarters of it (the newest entry always stays).
    mutating func trim(at version: Int, retention: Int?, budget: Int) {
        var cut = start
        if let retention {
            while cut < storage.count, storage[cut].version <= version - retention { cut += 1 }
        }
        var kept = bytes - storage[start..<cut].reduce(0) { $0 + Self.size($1) }
        if kept > budget {
            while cut < storage.count - 1, kept > budget / 4 * 3 {
                kept -= Self.size(storage[cut])
                cut += 1
            }
        }
        guard cut > start else { return }
        for index in start..<cut { storage[index] = Self.emptied }
        start = cut
        bytes = kept
        if start >= storage.count - start {
            storage.removeFirst(start)
            start = 0
        }
    }

    /// What stands in for an entry trimmed but not yet compacted away: it holds no bytes.
    private static let emptied = StoredChange(
        version: 0, time: 0, source: .api, request: [], visiblePath: [], state: [])

    /// The entry of `version`, if kept.
    func entry(_ version: Int) -> StoredChange? {
        var (low, high) = (start, storage.count)
        while low < high {
            let middle = (low + high) / 2
            if storage[middle].version < version { low = middle + 1 } else { high = middle }
        }
        return low < storage.count && storage[low].version == version ? storage[low] : nil
    }

    private static func size(_ change: StoredChange) -> Int {
        change.request.count + change.state.count
    }
}
