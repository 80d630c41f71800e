import Foundation
import HTTPTestSupport
import Logging
import SwitchyardServer
import SwitchyardSessions
import Testing

/// Store failures are the operator's to read, in the log and in readiness; a client gets a fixed text and an
/// incident id to quote, never the store's own words.
@Suite("Store failures: log, readiness, problem")
struct StoreFailureReportTests {
    static let leaky = ArchiveError.unavailable(#"connection to server at "127.0.0.1", port 56661 failed"#)

    /// A server on a SQLite store that fails on demand, logging to `lines`.
    static func serverOnAFaultyStore(
        failing failure: ArchiveError = .unavailable("disk full (simulated)")
    ) throws -> (TestServer, FaultyArchive, Recorder<String>, TemporaryStore) {
        let store = try TemporaryStore()
        let faulty = FaultyArchive(try store.open(), failure: failure)
        let lines = Recorder<String>()
        let logger = Logger(label: "t") { _ in RecordingLogHandler(lines: lines, includesMetadata: true) }
        return (try TestServer({ $0.archive = faulty }, logger: logger), faulty, lines, store)
    }

    static func stop(_ server: TestServer, _ faulty: FaultyArchive, _ store: TemporaryStore) {
        server.stop()
        faulty.close()
        _ = store
    }

    @Test func aFailureIsLoggedWithItsDetailWhileTheClientGetsAnIncidentId() throws {
        let (server, faulty, lines, store) = try Self.serverOnAFaultyStore(failing: Self.leaky)
        defer { Self.stop(server, faulty, store) }
        let session = try server.createSession()
        #expect(try server.get("/readyz").status == 200)

        faulty.failing.store(true, ordering: .relaxed)
        let refused = try session.event(#"{"name":"completeOnboarding"}"#)
        #expect(refused.status == 503)
        #expect(refused.json["code"] == "storeUnavailable")
        let incident = try #require(refused.json["incident"]?.stringValue)
        #expect(incident.count == 12)
        let detail = try #require(refused.json["detail"]?.stringValue)
        #expect(detail.contains(incident))
        #expect(!detail.contains("56661") && !detail.contains("127.0.0.1"), "no internals in \(detail)")

        let logged = lines.values.filter { $0.hasPrefix("error the session store failed") }
        #expect(logged.count == 1)
        #expect(logged.first?.contains("incident=\(incident)") == true)
        #expect(logged.first?.contains("56661") == true, "the log has the detail: \(logged)")

        // More failures within the interval are counted, not logged one by one: they share the incident id of the
        // line logged, so every id a client is given is in the log.
        for _ in 0..<20 {
            let again = try session.event(#"{"name":"completeOnboarding"}"#)
            #expect(again.json["incident"]?.stringValue == incident)
        }
        #expect(lines.values.filter { $0.hasPrefix("error") }.count == 1)

        let ready = try server.get("/readyz")
        #expect(ready.status == 503)
        #expect(ready.json["status"] == "failing")
        // The session left memory with the failed change: the retries failed to read it back.
        #expect(ready.json["store"]?["lastFailure"]?["operation"] == "load")
        #expect(!String(decoding: ready.body, as: UTF8.self).contains("56661"))
        #expect(try server.get("/healthz").status == 200, "liveness never asks the store")

        faulty.failing.store(false, ordering: .relaxed)
        try session.must(session.event(#"{"name":"completeOnboarding"}"#))
        #expect(try server.get("/readyz").status == 200)
        #expect(lines.values.contains { $0.hasPrefix("notice the session store answers again") })
    }

    @Test func unreadableStoredDataIsA500WithoutRetryAfter() throws {
        let store = try TemporaryStore()
        let faulty = FaultyArchive(
            try store.open(), failure: .unreadable("database disk image is malformed (SQLite error 11)"))
        let server = try TestServer { $0.archive = faulty }
        defer {
            server.stop()
            faulty.close()
        }
        let session = try server.createSession()
        faulty.failing.store(true, ordering: .relaxed)
        let refused = try session.event(#"{"name":"completeOnboarding"}"#)
        #expect(refused.status == 500)
        #expect(refused.json["code"] == "storeUnreadable")
        #expect(refused.header("Retry-After") == nil, "retrying a damaged row cannot help")
        #expect(refused.json["detail"]?.stringValue?.contains("malformed") == false)
    }

    @Test func readinessSaysWhenTheStoreIsReadOnlyAndTheLogSaysItOnce() throws {
        let (server, faulty, lines, store) = try Self.serverOnAFaultyStore()
        defer { Self.stop(server, faulty, store) }
        faulty.reported.withLock { $0 = .readOnly("the disk is full") }
        let ready = try server.get("/readyz")
        #expect(ready.status == 503)
        #expect(ready.json["status"] == "readOnly")
        #expect(ready.json["store"]?["reason"] == "the disk is full")
        #expect(try server.get("/readyz").status == 503)
        #expect(server.api.expireIdleSessions() == 0)
        #expect(lines.values.filter { $0.hasPrefix("error the session store is read-only") }.count == 1)
        faulty.reported.withLock { $0 = nil }
        #expect(try server.get("/readyz").status == 200)
        #expect(lines.values.contains { $0.hasPrefix("notice the session store takes changes again") })
    }
}
