import Foundation
import HTTPTestSupport
import Synchronization
import Testing

/// `switchyard-follow` (Examples/Follow, the Swift client's example) as a user runs it: given the page's address of
/// a session, it prints each state's visible path as the session changes, and ends when the session is deleted.
@Suite("switchyard-follow")
struct FollowCommandTests {
    static let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../.build/debug/switchyard-follow").standardizedFileURL

    @Test func itPrintsTheVisiblePathLiveAndEndsWithTheSession() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let session = try server.createSession()
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["http://127.0.0.1:\(server.port)/s/\(session.id)"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let printed = Mutex("")
        output.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            printed.withLock { $0 += text }
        }
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        func shows(_ text: String) async -> Bool {
            await waitUntil(within: 10) { printed.withLock { $0.contains(text) } }
        }

        #expect(
            await shows("v0  onboarding/welcome  “Welcome”"), "the state it starts with: \(printed.withLock { $0 })")
        #expect(await shows("… live"))
        try session.logIn()
        try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#))
        #expect(await shows("v2  authenticated/"), "\(printed.withLock { $0 })")
        #expect(await shows("v3  authenticated/settings"), "\(printed.withLock { $0 })")
        #expect(try server.request("DELETE", session.base).status == 204)
        #expect(await waitUntil(within: 10) { !process.isRunning }, "it ends with the session")
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message.contains("404"), "\(message)")
    }

    @Test func aWrongCommandLineIsAUsageError() throws {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["not a url"]
        process.standardError = Pipe()
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
    }
}
