import Switchyard

/// The latest changes a session refused (4xx answers: a navigation rule, a stale version, a malformed step), kept
/// so that tools can show them beside the history. Refusals are not versions: they are kept in this node's memory
/// only, the latest ``capacity``, each with its request cut to ``requestLimit`` bytes and its problem without the
/// state document some problems carry. They are gone when the session leaves memory.
package struct RecentRefusals: Sendable {
    /// One refused change.
    package struct Refusal: Sendable {
        /// When (seconds since 1970).
        package let time: Double
        /// The version the session was at (and stayed at).
        package let version: Int
        /// Where the change came from; nil when the request could not be read.
        package let source: HistorySource?
        /// The request as received (or `{"omitted":…}` when larger than ``RecentRefusals/requestLimit``).
        package let request: [UInt8]
        /// The answer's status.
        package let status: Int
        /// The answer's problem: `type`, `title`, `status`, `detail`, `code` and `choices` (not `state`).
        package let problem: JSONValue
    }

    /// How many are kept.
    package static let capacity = 10
    /// The largest request kept whole, in bytes.
    static let requestLimit = 512
    /// The problem members kept.
    private static let problemMembers: Set<String> = ["type", "title", "status", "detail", "code", "choices"]

    /// The kept refusals, oldest first.
    private(set) package var entries: [Refusal] = []

    /// Keeps a refused change's answer (4xx only: a store's or server's failure is not the session's refusal).
    mutating func add(_ reply: SessionReply, request: [UInt8], source: HistorySource?, version: Int, time: Double) {
        guard (400..<500).contains(reply.status) else { return }
        var problem: JSONValue = .object([:])
        if case .object(let members)? = try? JSONValue(parsing: reply.body) {
            problem = .object(members.filter { Self.problemMembers.contains($0.key) })
        }
        entries.append(
            Refusal(
                time: time, version: version, source: source,
                request: HistoryEntry.keptRequest(request, limit: Self.requestLimit), status: reply.status,
                problem: problem))
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }

    /// `{"session":…,"version":…,"refusals":[{"time","version","source"?,"request","status","problem"}…]}`
    package static func document(session: String, version: Int, refusals: [Refusal]) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("session", session)
        writer.member("version", version)
        writer.key("refusals")
        writer.beginArray()
        for refusal in refusals {
            writer.beginObject()
            writer.member("time", HistoryEntry.iso8601(refusal.time))
            writer.member("version", refusal.version)
            writer.member("source", ifPresent: refusal.source?.rawValue)
            writer.member("request", (try? JSONValue(parsing: refusal.request)) ?? .null)
            writer.member("status", refusal.status)
            writer.member("problem", refusal.problem)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }
}
