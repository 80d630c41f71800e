import Switchyard
import SwitchyardSessions
import Testing

/// The in-memory archive keeps a session's latest versions within its retention, however many changes pass through
/// it (entries leave from the oldest end, and the kept ones stay readable in order).
@Suite("In-memory history retention")
struct MemoryArchiveRetentionTests {
    private static func document(_ version: Int) -> [UInt8] {
        Array(#"{"version":\#(version)}"#.utf8)
    }

    private static func change(_ version: Int) -> StoredChange {
        StoredChange(
            version: version, time: Double(version), source: .api, request: Array("{}".utf8), visiblePath: [],
            state: document(version))
    }

    @Test func theLatestVersionsStayReadableThroughManyTrims() throws {
        let archive = MemorySessionArchive(
            limits: StoreLimits(historyEntries: 50, historyBytes: 1 << 20, replies: 8, replyBytes: 4096))
        try archive.apply([
            .create(
                StoredSession(id: "s", app: "a", version: 0, state: Self.document(0), lastAccess: 0, used: false),
                creation: nil)
        ])
        for version in 1...237 {
            try archive.apply([
                .change(
                    session: "s", base: version - 1, version: version, state: Self.document(version),
                    history: [Self.change(version)], reply: nil)
            ])
            let kept = try archive.history(of: "s", after: nil, limit: 1000).map(\.version)
            let oldest = max(1, version - 49)
            #expect(kept == Array(oldest...version), "after version \(version)")
            #expect(try archive.state(of: "s", at: oldest) == Self.document(oldest))
            if oldest > 1 { #expect(try archive.state(of: "s", at: oldest - 1) == nil) }
        }
        #expect(try archive.history(of: "s", after: 200, limit: 5).map(\.version) == [201, 202, 203, 204, 205])
        #expect(try archive.state(of: "s", at: 0) == Self.document(0), "the first version stays")
    }
}
