import Switchyard
import Testing

@testable import SwitchyardSessions

/// The scan's paging over a store: reading several pages at once hands the analysis the same sessions, in the same
/// order, with the same notes, as reading one page at a time, at every bound.
@Suite("Analytics scan")
struct AnalyticsScanTests {
    /// 1,234 sessions of `todo` (each changed `index % 4` times, one of the changes an event) and 300 of `other`.
    static func archive() throws -> MemorySessionArchive {
        let archive = MemorySessionArchive()
        var writes: [ArchiveWrite] = []
        for (app, count) in [("todo", 1234), ("other", 300)] {
            for index in 0..<count {
                let id = "\(app)-\(String(index * 7919 % 10007, radix: 16))-\(index)"
                let state = Array(#"{"app":{"name":"\#(app)","version":1},"tree":{}}"#.utf8)
                writes.append(
                    .create(
                        StoredSession(id: id, app: app, version: 0, state: state, lastAccess: 1000, used: true),
                        creation: nil))
                let changes = index % 4
                guard changes > 0 else { continue }
                let history = (1...changes).map { version in
                    StoredChange(
                        version: version, time: 1000 + Double(version), source: version == 1 ? .event : .api,
                        request: Array((version == 1 ? #"{"name":"go"}"# : #"{"action":"push"}"#).utf8),
                        visiblePath: ["s\(version)"], state: state)
                }
                writes.append(
                    .change(session: id, base: 0, version: changes, state: state, history: history, reply: nil))
            }
        }
        try archive.apply(writes)
        return archive
    }

    /// What the analysis was handed: each journey's screens, in order; and the notes.
    static func scan(
        _ archive: MemorySessionArchive, pages: Int, maxSessions: Int
    ) throws -> (journeys: [String], read: Int, notes: [String]) {
        var scan = AnalyticsScan(maxSessions: maxSessions, timeLimit: 60)
        scan.pagesAtOnce = pages
        var journeys: [String] = []
        let outcome = try scan.run(archive, apps: ["todo", "other"], filter: AnalyticsFilter(), start: { _ in ["s0"] })
        {
            journeys.append($0.steps.map { $0.screen + ($0.event.map { "!" + $0 } ?? "") }.joined(separator: ">"))
        }
        return (journeys, outcome.read, outcome.notes)
    }

    @Test(arguments: [1534, 100_000, 1000, 700, 1500, 1])
    func pagesReadAtOnceGiveWhatOnePageAtATimeGives(maxSessions: Int) throws {
        let archive = try Self.archive()
        let one = try Self.scan(archive, pages: 1, maxSessions: maxSessions)
        #expect(one.read == min(1534, maxSessions))
        #expect(one.journeys.count == one.read)
        #expect(one.journeys.contains("s0>s1!go>s2>s3") || maxSessions < 4)
        #expect(one.notes.contains { $0.hasPrefix("only the first") } == (maxSessions < 1534))
        for pages in [2, 3] {
            let many = try Self.scan(archive, pages: pages, maxSessions: maxSessions)
            #expect(many.read == one.read, "\(pages) pages at once")
            #expect(many.journeys == one.journeys, "\(pages) pages at once")
            #expect(many.notes == one.notes, "\(pages) pages at once")
        }
    }
}
