import MicroHTTP
import Testing

struct Boom: Error {}

@Suite("Errors")
struct ErrorHandlingTests {
    @Test("A throwing handler yields a 500 problem and the server keeps serving")
    func throwingHandler() throws {
        try withServer(
            handle: { request in
                if request.path == "/boom" { throw Boom() }
                return .json(200, Array("{}".utf8))
            }
        ) { server in
            let connection = try RawConnection(port: server.port)
            let failed = try connection.request("GET", "/boom")
            #expect(failed.status == 500)
            #expect(failed.headers["Content-Type"] == "application/problem+json")
            #expect(failed.json["status"] as? Int == 500)
            #expect(failed.json["title"] as? String == "Internal Server Error")
            #expect(failed.json["detail"] is String)
            #expect(failed.json["type"] as? String == "about:blank")
            // Same connection, next request: fine.
            #expect(try connection.request("GET", "/ok").status == 200)
        }
    }

    @Test("Problem bodies escape their strings")
    func problemEscaping() throws {
        let response = HTTPResponse.problem(
            status: 409, title: "Conflict \"x\"", detail: "line1\nline2\\", type: "https://example.invalid/p")
        let text = String(decoding: caseBytes(response), as: UTF8.self)
        #expect(
            text
                == #"{"type":"https://example.invalid/p","title":"Conflict \"x\"","status":409,"detail":"line1\nline2\\"}"#
        )
        #expect(response.header("content-type") == "application/problem+json")
    }

    @Test("A port in use gives bindFailed with a readable reason")
    func portInUse() throws {
        try withServer(handle: echo) { server in
            let second = HTTPServer(
                configuration: testConfiguration { $0.port = server.port }, handler: ClosureHTTPHandler(echo),
                logger: quietLogger)
            do {
                try second.start()
                Issue.record("start should have failed")
                second.stop()
            } catch let HTTPServerError.bindFailed(host, port, reason) {
                #expect(host == "127.0.0.1")
                #expect(port == server.port)
                #expect(reason.lowercased().contains("in use"))
            }
        }
    }

    @Test("A host that is not an IP address is refused")
    func invalidHost() {
        let server = HTTPServer(
            configuration: testConfiguration { $0.host = "not an address" }, handler: ClosureHTTPHandler(echo),
            logger: quietLogger)
        #expect(throws: HTTPServerError.invalidHost("not an address")) { try server.start() }
    }

    private func caseBytes(_ response: HTTPResponse) -> [UInt8] {
        if case .bytes(let bytes) = response.body { return bytes }
        return []
    }
}
