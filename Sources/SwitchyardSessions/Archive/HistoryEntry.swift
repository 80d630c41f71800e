import Switchyard
import SwitchyardJSON

/// One committed change of a session, as `GET /api/sessions/{id}/history` lists it.
package struct HistoryEntry: Sendable {
    let version: Int
    let time: Double
    let source: HistorySource
    /// The request body as received: parsed only when the history is read, which is rare, so the write path of
    /// every change skips a JSON parse.
    var request: [UInt8]
    let visiblePath: [String]
    /// The coordinators the change started, in order, and those it finished, deepest first.
    var started: [CoordinatorReference] = []
    var finished: [CoordinatorReference] = []
    /// When the change is a guard's redirect: the guarded route it went instead of (pending until its guard allows).
    var redirected: PendingRoute?

    /// An entry read back from the store.
    init(_ stored: StoredChange) {
        self.init(
            version: stored.version, time: stored.time, source: stored.source,
            request: stored.request, visiblePath: stored.visiblePath)
        started = stored.started
        finished = stored.finished
        redirected = stored.redirected
    }

    init(version: Int, time: Double, source: HistorySource, request: [UInt8], visiblePath: [String]) {
        self.version = version
        self.time = time
        self.source = source
        self.request = request
        self.visiblePath = visiblePath
    }

    /// A request body as the history keeps it: as received, or `{"omitted":…,"bytes":n}` when over `limit` bytes.
    static func keptRequest(_ body: [UInt8], limit: Int) -> [UInt8] {
        guard body.count > limit else { return body }
        return Array(#"{"omitted":"the request body was too large to keep","bytes":\#(body.count)}"#.utf8)
    }

    /// `{"session":…,"version":…,"entries":[…]}`
    package static func document(session: String, version: Int, entries: some Sequence<HistoryEntry>) -> [UInt8] {
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

    func write(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("version", version)
        writer.member("time", Self.iso8601(time))
        writer.member("source", source.rawValue)
        writer.member("request", (try? JSONValue(parsing: request)) ?? .null)
        writer.key("visiblePath")
        writer.beginArray()
        for route in visiblePath { writer.string(route) }
        writer.endArray()
        for (name, references) in [("started", started), ("finished", finished)] where !references.isEmpty {
            writer.key(escaping: name)
            writer.beginArray()
            for reference in references {
                writer.beginObject()
                writer.member("id", reference.id.description)
                writer.member("type", reference.type)
                writer.endObject()
            }
            writer.endArray()
        }
        if let redirected { writer.member("redirected", redirected.json) }
        writer.endObject()
    }

    /// `2026-11-22T14:10:32.123Z`
    static func iso8601(_ seconds: Double) -> String {
        var time = time_t(seconds.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        let millis = Int((seconds - seconds.rounded(.down)) * 1000)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(millis), 3))Z"
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
