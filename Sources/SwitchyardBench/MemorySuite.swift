import Foundation
import MicroHTTP
import Switchyard
import SwitchyardServer
import TodoDemo

/// Resident memory per idle session: VmRSS before and after creating many demo sessions, logged in and on the
/// todos tab. `api` creates real sessions through the REST handler in-process; `engine` holds bare engines.
struct MemorySuite {
    enum Mode: String, Encodable {
        case api, engine
    }

    struct Result: Encodable {
        let id: String
        let mode: Mode
        let sessions: Int
        let rssBeforeBytes: Int
        let rssAfterBytes: Int
        let bytesPerSession: Double
        /// Of the memory measured, the screens' renderings the sessions keep (bounded across sessions by
        /// `maxRenderingBytes`, so their share per session falls as sessions grow); 0 in `engine` mode.
        let renderingBytes: Int
        let seconds: Double
    }

    let mode: Mode
    let count: Int

    func run() throws -> Result {
        var engines: [NavigationEngine] = []
        var configuration = ServerConfiguration(apps: [TodoDemo.app])
        configuration.maxSessions = count + 1
        configuration.sessionCreationsPerMinute = 0  // one address creates them all
        let api = SwitchyardAPI(configuration: configuration)
        let login = Array(
            #"{"steps":[{"action":"root","route":"authenticated","input":"bench"},{"action":"focus","route":"todos"}]}"#
                .utf8)
        // Warm up caches (route tables, type metadata) before the baseline.
        switch mode {
        case .api: _ = try createAPISession(api, login: login)
        case .engine: _ = try DemoStates.loggedIn()
        }
        engines.reserveCapacity(count)
        let before = Self.residentBytes()
        let start = Harness.now()
        for _ in 0..<count {
            switch mode {
            case .api: try createAPISession(api, login: login)
            case .engine: engines.append(try DemoStates.loggedIn().engine)
            }
        }
        let seconds = Double(Harness.now() - start) / 1e9
        let after = Self.residentBytes()
        let renderingBytes = mode == .api ? try Self.renderingBytes(api) : 0
        withExtendedLifetime(engines) {}
        withExtendedLifetime(api) {}
        return Result(
            id: "memory.\(mode.rawValue)", mode: mode, sessions: count, rssBeforeBytes: before, rssAfterBytes: after,
            bytesPerSession: Double(after - before) / Double(count), renderingBytes: renderingBytes, seconds: seconds)
    }

    /// The `switchyard_screen_rendering_bytes` gauge of `/metrics`.
    private static func renderingBytes(_ api: SwitchyardAPI) throws -> Int {
        let metrics = try api.handle(HTTPRequest(method: "GET", path: "/metrics"))
        guard case .bytes(let body) = metrics.body else { throw BenchError("/metrics answered no body") }
        let line = String(decoding: body, as: UTF8.self).split(separator: "\n")
            .first { $0.hasPrefix("switchyard_screen_rendering_bytes ") }
        guard let value = line.flatMap({ Int($0.split(separator: " ").last ?? "") }) else {
            throw BenchError("/metrics has no switchyard_screen_rendering_bytes")
        }
        return value
    }

    /// `POST /api/sessions` then a transition that logs in and focuses the todos tab, through the handler.
    private func createAPISession(_ api: SwitchyardAPI, login: [UInt8]) throws {
        let created = try api.handle(HTTPRequest(method: "POST", path: "/api/sessions"))
        guard created.status == 201, let location = created.header("Location") else {
            throw BenchError("POST /api/sessions answered \(created.status)")
        }
        let changed = try api.handle(
            HTTPRequest(
                method: "POST", path: location + "/transitions", headers: ["Content-Type": "application/json"],
                body: login))
        guard changed.status == 200 else { throw BenchError("login transition answered \(changed.status)") }
    }

    /// VmRSS from /proc/self/status, in bytes.
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let digits = line.filter(\.isNumber)
            return (Int(digits) ?? 0) * 1024
        }
        return 0
    }
}
