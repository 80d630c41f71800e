/// One session's history in the ``MemorySessionArchive``: its entries oldest first (versions increasing), with the
/// bytes they hold, trimmed from the oldest end as ``StoreLimits`` says (the stores trim the same way).
struct MemoryHistory {
    private(set) var entries: [StoredChange] = []
    /// Bytes the entries hold (requests and restore documents).
    private(set) var bytes = 0

    var isEmpty: Bool { entries.isEmpty }

    /// Adds entries made by a change (a version stored again replaces the one kept, and any after it).
    mutating func append(_ changes: [StoredChange]) {
        for change in changes {
            while let last = entries.last, last.version >= change.version { bytes -= Self.size(entries.removeLast()) }
            entries.append(change)
            bytes += Self.size(change)
        }
    }

    /// The current version's state changed without a new version (app data): its entry keeps the new state.
    mutating func replaceState(of version: Int, with state: [UInt8]) {
        guard let last = entries.indices.last, entries[last].version == version else { return }
        bytes += state.count - entries[last].state.count
        entries[last].state = state
    }

    /// Drops the oldest entries: those more than `retention` versions before `version`, then, past `budget` bytes,
    /// enough to leave about three quarters of it (the newest entry always stays).
    mutating func trim(at version: Int, retention: Int?, budget: Int) {
        var cut = 0
        if let retention {
            while cut < entries.count, entries[cut].version <= version - retention { cut += 1 }
        }
        var kept = bytes - entries.prefix(cut).reduce(0) { $0 + Self.size($1) }
        if kept > budget {
            while cut < entries.count - 1, kept > budget / 4 * 3 {
                kept -= Self.size(entries[cut])
                cut += 1
            }
        }
        guard cut > 0 else { return }
        entries.removeFirst(cut)
        bytes = kept
    }

    /// The entry of `version`, if kept.
    func entry(_ version: Int) -> StoredChange? {
        var (low, high) = (0, entries.count)
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].version < version { low = middle + 1 } else { high = middle }
        }
        return low < entries.count && entries[low].version == version ? entries[low] : nil
    }

    private static func size(_ change: StoredChange) -> Int {
        change.request.count + change.state.count
    }
}
