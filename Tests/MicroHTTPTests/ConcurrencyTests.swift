import Dispatch
import MicroHTTP
import Testing

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("Many threads with keep-alive connections all get their own answers")
    func manyThreads() throws {
        let configuration = testConfiguration { $0.maxConnectionsPerIP = 100 }
        try withServer(configuration, handle: echo) { server in
            let failures = Recorder<String>()
            let port = server.port
            DispatchQueue.concurrentPerform(iterations: 16) { worker in
                do {
                    let connection = try RawConnection(port: port)
                    for index in 0..<40 {
                        let path = "/w/\(worker)/\(index)"
                        let response = try connection.request("POST", path, body: "body-\(worker)-\(index)")
                        if response.status != 200 || response.json["path"] as? String != path
                            || response.json["body"] as? String != "body-\(worker)-\(index)"
                        {
                            failures.append("\(path): \(response.status) \(response.text)")
                        }
                    }
                } catch {
                    failures.append("worker \(worker): \(error)")
                }
            }
            #expect(failures.values.isEmpty)
        }
    }
}
