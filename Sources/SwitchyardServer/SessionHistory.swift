import SwitchyardJSON

/// A session's committed changes, newest last, within a count and a byte budget (oldest dropped first).
struct SessionHistory {
    private(set) var entries: [HistoryEntry] = []
    private var bytes = 0
    private let maxEntries: Int
    private let maxBytes: Int
    private let maxRequestBytes: Int

    init(configuration: ServerConfiguration) {
        maxEntries = configuration.historyLimit
        maxBytes = configuration.maxHistoryBytes
        maxRequestBytes = configuration.maxHistoryRequestBytes
    }

    /// Adds an entry; a request body over the limit is kept as `{"omitted":…,"bytes":n}`.
    mutating func append(_ entry: HistoryEntry) {
        var entry = entry
        entry.request = storedRequest(entry.request)
        entries.append(entry)
        bytes += entry.cost
        while entries.count > 1, entries.count > maxEntries || bytes > maxBytes {
            bytes -= entries.removeFirst().cost
        }
    }

    /// The request body as the history keeps it: as received, or `{"omitted":…,"bytes":n}` when over the limit.
    func storedRequest(_ request: [UInt8]) -> [UInt8] {
        guard request.count > maxRequestBytes else { return request }
        return Array(#"{"omitted":"the request body was too large to keep","bytes":\#(request.count)}"#.utf8)
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
