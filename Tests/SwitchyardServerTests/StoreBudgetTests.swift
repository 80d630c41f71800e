import Foundation
import SwitchyardServer
import SwitchyardSessions
import Testing

/// No session can fill the store: each keeps at most its budget of history and of remembered replies, the oldest
/// going first, its latest version always readable.
@Suite("Store budgets")
struct StoreBudgetTests {
    /// Every store enforces ``StoreLimits``.
    static let kinds = ArchiveKind.available

    static func change(_ version: Int, documentBytes: Int) -> ArchiveWrite {
        let state = ArchiveConformanceTests.state(
            version, #","pad":""# + String(repeating: "x", count: documentBytes) + #"""#)
        let reply = StoredReply(
            key: "k\(version)", fingerprint: 1, session: "s", status: 200, headers: [("ETag", "\"\(version)\"")],
            body: Array(repeating: UInt8(ascii: "r"), count: 2048))
        return .change(
            session: "s", base: version - 1, version: version, state: state,
            history: [
                StoredChange(
                    version: version, time: 2000 + Double(version), source: .api, request: Array("{}".utf8),
                    visiblePath: ["p"], state: state)
            ], reply: reply)
    }

    @Test(arguments: kinds)
    func aBusySessionKeepsItsHistoryAndRepliesWithinTheirBudgets(kind: ArchiveKind) throws {
        let limits = StoreLimits(historyEntries: nil, historyBytes: 256 * 1024, replies: 256, replyBytes: 32 * 1024)
        let (archive, keep) = try kind.open(limits: limits)
        defer { archive.close() }
        _ = keep
        try archive.apply([.create(ArchiveConformanceTests.session("s"), creation: nil)])
        for version in 1...200 { try archive.apply([Self.change(version, documentBytes: 20_000)]) }

        let history = try archive.history(of: "s", after: nil, limit: 1000)
        let kept = try history.reduce(0) { total, entry in
            total + entry.request.count + (try archive.state(of: "s", at: entry.version)?.count ?? 0)
        }
        #expect(kept <= limits.historyBytes, "\(kept) bytes of history kept")
        #expect(history.count >= 5, "about three quarters of the budget stays after a trim")
        #expect(history.map(\.version) == Array((201 - history.count)...200), "the oldest go first")
        #expect(try archive.state(of: "s", at: 1) == nil)
        #expect(
            try archive.session("s")?.state
                == ArchiveConformanceTests.state(200, #","pad":""# + String(repeating: "x", count: 20_000) + #"""#))

        let replies = try #require(try archive.session("s")?.replies)
        let replyBytes = replies.reduce(0) { $0 + $1.body.count + StoredText.headers($1.headers).utf8.count }
        #expect(replyBytes <= limits.replyBytes, "\(replyBytes) bytes of replies kept")
        #expect(replies.last?.key == "k200")
        #expect(replies.count >= 8)
    }

    @Test(arguments: kinds)
    func oneEntryLargerThanTheBudgetIsStillKeptAsTheLatest(kind: ArchiveKind) throws {
        let (archive, keep) = try kind.open(limits: StoreLimits(historyBytes: 8 * 1024, replyBytes: 1024))
        defer { archive.close() }
        _ = keep
        try archive.apply([.create(ArchiveConformanceTests.session("s"), creation: nil)])
        for version in 1...3 { try archive.apply([Self.change(version, documentBytes: 20_000)]) }
        #expect(try archive.history(of: "s", after: nil, limit: 10).map(\.version) == [3])
        #expect(try archive.state(of: "s", at: 3) != nil)
        #expect(try archive.session("s")?.replies.map(\.key) == ["k3"])
    }
}
