import Foundation
import Logging
import Switchyard
import Testing

@testable import SQLiteStore

/// A damaged history entry is not "not kept": the versions built on it answer 500 `storeUnreadable` with an
/// incident id that is in the log, and readiness says the store failed.
@Suite("Damaged history")
struct DamagedHistoryTests {
    @Test func aDamagedDeltaIsLoggedWithItsIncidentNotAnswered404() throws {
        let store = try TemporaryStore()
        let (id, version) = try store.withServer { server, _ in
            let session = try server.createSession()
            try session.logIn()
            for _ in 0..<10 {
                try session.must(session.transition(#"{"action":"selectTab","route":"todos"}"#))
                try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#))
            }
            return (session.id, try #require(try session.state().version))
        }
        let rows = try SQLiteConnection(path: store.path)
        let damaged = try rows.integer("SELECT min(version) FROM history WHERE session = '\(id)' AND base IS NOT NULL")
        #expect(damaged > 0 && damaged < version)
        try rows.execute("UPDATE history SET state = x'00ff00ff' WHERE session = '\(id)' AND version = \(damaged)")

        let lines = Recorder<String>()
        let logger = Logger(label: "t") { _ in RecordingLogHandler(lines: lines, includesMetadata: true) }
        let archive = try store.open()
        let server = try TestServer({ $0.archive = archive }, logger: logger)
        defer {
            server.stop()
            archive.close()
        }
        // A version before the damage still reads; the damaged one answers 500 with an incident, never 404.
        #expect(try server.get("/api/sessions/\(id)/versions/\(damaged - 1)").status == 200)
        let read = try server.get("/api/sessions/\(id)/versions/\(damaged)")
        #expect(read.status == 500)
        #expect(read.json["code"] == "storeUnreadable")
        let incident = try #require(read.json["incident"]?.stringValue)
        #expect(lines.values.contains { $0.hasPrefix("error") && $0.contains("incident=\(incident)") })
        #expect(try server.get("/readyz").status == 503)
    }
}
