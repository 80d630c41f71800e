import SwitchyardJSON

/// A session's committed changes, newest last, within a count and a byte budget (oldest dropped first).
struct SessionHistory {
    private(set) var entries: [HistoryEntry] = []
    private var bytes = 0
    private let maxEntries: Int
    private let maxBytes: Int

    init(configuration: ServerConfiguration) {
        maxEntries = configuration.historyLimit
        maxBytes = configuration.maxHistoryBytes
    }

    /// Adds an entry (its request already cut to ``HistoryEntry/keptRequest(_:limit:)``).
    mutating func append(_ entry: HistoryEntry) {
        entries.append(entry)
        bytes += entry.cost
        while entries.count > 1, entries.count > maxEntries || bytes > maxBytes {
            bytes -= entries.removeFirst().cost
        }
    }

    /// Up to `limit` entries, oldest first: those after version `after`, or (nil) the latest.
    func entries(after: Int?, limit: Int) -> ArraySlice<HistoryEntry> {
        guard let after else { return entries.suffix(limit) }
        return entries.drop { $0.version <= after }.prefix(limit)
    }

    /// `{"session":…,"version":…,"entries":[…]}`
    static func document(session: String, version: Int, entries: some Sequence<HistoryEntry>) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("session", session)
        writer.member("version", version)
        writer.key("entries")
        writer.beginArray()
        for entry in entries { entry.write(into: &writer) }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }
}
