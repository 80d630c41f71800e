import Foundation
import Switchyard
import SwitchyardSessions
import Testing

/// `--store memory` keeps history of all sessions within one budget: the sessions changed longest ago give theirs
/// up first, and `/metrics` shows what is held.
@Suite("History in memory within a global budget")
struct MemoryHistoryBudgetTests {
    @Test func theSessionsChangedLongestAgoGiveUpTheirHistoryFirst() throws {
        let budget = 96 * 1024
        try withServer({ $0.archive = MemorySessionArchive(limits: .inMemory, historyBudget: budget) }) { server in
            var sessions: [DemoSession] = []
            for _ in 0..<12 {
                let session = try server.createSession()
                try session.logIn()
                for _ in 0..<4 {
                    try session.must(session.transition(#"{"action":"selectTab","route":"todos"}"#))
                    try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#))
                }
                sessions.append(session)
            }
            let metrics = try server.get("/metrics").text
            let held = try #require(
                metrics.split(separator: "\n").first { $0.hasPrefix("switchyard_memory_history_bytes ") }
                    .flatMap { Int($0.split(separator: " ")[1]) })
            #expect(held > 0 && held <= budget, "\(held) bytes held")
            // The last session changed keeps its time travel; the first gave its history up.
            let last = try #require(sessions.last)
            #expect(try server.get("\(last.base)/versions/2").status == 200)
            let first = try server.get("\(sessions[0].base)/versions/2")
            #expect(first.status == 404)
            #expect(first.json["code"] == "versionNotKept")
            // Its current version is always there.
            #expect(try sessions[0].state().status == 200)
        }
    }
}
