import Dispatch
import MicroHTTP
import Testing

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("Many threads with keep-alive connections all get their own answers")
    func manyThreads() throws {
        let configuration = testConfiguration { $0.maxConnectionsPerIP = 100 }
        try withServer(configuration, handle: echo) { server in
            let failures = Self.exchanges(port: server.port, connections: 16, requests: 40) {
                connection, worker, index in
                let path = "/w/\(worker)/\(index)"
                let response = try connection.request("POST", path, body: "body-\(worker)-\(index)")
                if response.status != 200 || response.json["path"] as? String != path
                    || response.json["body"] as? String != "body-\(worker)-\(index)"
                {
                    return "\(path): \(response.status) \(response.text)"
                }
                return nil
            }
            #expect(failures.isEmpty)
        }
    }

    /// A body is sent from the answer's own storage (no copy): large answers to many connections at once each arrive
    /// whole and as made, and the storage is let go once sent (no crash, no mix-up between answers).
    @Test("Large answers sent from their own storage arrive whole")
    func largeAnswersArriveWhole() throws {
        @Sendable func body(_ seed: Int) -> [UInt8] {
            (0..<(200_000 + seed * 7)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed) }
        }
        let configuration = testConfiguration { $0.maxConnectionsPerIP = 100 }
        let handle: @Sendable (HTTPRequest) throws -> HTTPResponse = { request in
            HTTPResponse(status: 200, body: body(Int(request.path.split(separator: "/").last ?? "") ?? 0))
        }
        try withServer(configuration, handle: handle) { server in
            let failures = Self.exchanges(port: server.port, connections: 8, requests: 6) { connection, worker, index in
                let seed = worker * 10 + index
                let response = try connection.request("GET", "/big/\(seed)")
                if response.status != 200 || response.body != body(seed) {
                    return "\(seed): \(response.status), \(response.body.count) bytes"
                }
                return nil
            }
            #expect(failures.isEmpty)
        }
    }

    /// Opens `connections` keep-alive connections to `port` at once and makes `requests` exchanges on each
    /// (`exchange` is given the connection, its number and the exchange's, and says what went wrong, or nil);
    /// returns what went wrong.
    private static func exchanges(
        port: UInt16, connections: Int, requests: Int,
        _ exchange: @Sendable (RawConnection, Int, Int) throws -> String?
    ) -> [String] {
        let failures = Recorder<String>()
        DispatchQueue.concurrentPerform(iterations: connections) { worker in
            do {
                let connection = try RawConnection(port: port)
                for index in 0..<requests {
                    if let failure = try exchange(connection, worker, index) { failures.append(failure) }
                }
            } catch {
                failures.append("worker \(worker): \(error)")
            }
        }
        return failures.values
    }
}
