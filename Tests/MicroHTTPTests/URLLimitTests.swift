import MicroHTTP
import Testing

@Suite("URL length limit")
struct URLLimitTests {
    @Test("A target over the cap gets 414; one at the cap is served")
    func uriTooLong() throws {
        let configuration = testConfiguration { $0.maxURLBytes = 256 }
        try withServer(configuration, handle: echo) { server in
            let long = "/" + String(repeating: "a", count: 256)
            let refused = try RawConnection(port: server.port).request("GET", long)
            #expect(refused.status == 414)
            #expect(refused.headers["Content-Type"] == "application/problem+json")
            #expect(refused.json["title"] as? String == "URI Too Long")

            let fits = "/" + String(repeating: "a", count: 255)
            #expect(try RawConnection(port: server.port).request("GET", fits).status == 200)
        }
    }

    @Test("A target with 1,000 query parameters is answered, every parameter decoded")
    func manyQueryParameters() throws {
        try withServer(handle: echo) { server in
            // libmicrohttpd kept each argument in its small per-connection pool: ~480 filled it and
            // the request got no answer at all.
            let query = (0..<1000).map { "p\($0)=\($0 % 10)" }.joined(separator: "&")
            let response = try RawConnection(port: server.port).request("GET", "/many?" + query)
            #expect(response.status == 200)
            let decoded = response.json["query"] as? [String: String] ?? [:]
            #expect(decoded.count == 1000)
            #expect(decoded["p999"] == "9")
            #expect(response.json["path"] as? String == "/many")
        }
    }

    @Test("The default cap is 8 KiB")
    func defaultCap() throws {
        #expect(HTTPServerConfiguration().maxURLBytes == 8192)
        try withServer(handle: echo) { server in
            let response = try RawConnection(port: server.port).request(
                "GET", "/?q=" + String(repeating: "x", count: 9000))
            #expect(response.status == 414)
        }
    }
}
